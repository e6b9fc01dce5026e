/// Markdown reference links: `[text][ref]`, `[ref][]` and `[ref]` use a URL
/// that a definition line `[ref]: url` gives, anywhere in the document.
/// Hovering such a reference shows the card of the definition's URL.
///
/// Definitions are found per line when the line is scanned (so edits keep
/// them current, like the links); references only when hovered.
enum ReferenceLinks {
    /// Labels longer than this are not labels (CommonMark's limit is 999).
    static let maxLabelLength = 999

    /// The normalised label of the definition on this line — up to three
    /// spaces, `[label]:`, white space, then a URL (`first`, the line's
    /// first link) — or nil.
    static func definitionLabel(in line: [UInt8], first: URLDetector.Match?) -> String? {
        guard let first else { return nil }
        var index = 0
        while index < 3, index < line.count, line[index] == UInt8(ascii: " ") { index += 1 }
        guard index < line.count, line[index] == UInt8(ascii: "[") else { return nil }
        guard let close = closingBracket(in: line, from: index), close + 1 < line.count,
            line[close + 1] == UInt8(ascii: ":")
        else { return nil }
        var after = close + 2
        while after < line.count, line[after] == UInt8(ascii: " ") || line[after] == UInt8(ascii: "\t") { after += 1 }
        if after < line.count, line[after] == UInt8(ascii: "<") { after += 1 }
        guard first.start == after else { return nil }
        return normalized(line[(index + 1)..<close])
    }

    /// The reference at byte `offset` of `line`: its normalised label, and
    /// the bytes it spans (`[text][ref]` whole). Inline links `[text](url)`
    /// and definitions are not references.
    static func reference(at offset: Int, in line: [UInt8]) -> (label: String, range: Swift.Range<Int>)? {
        var groups: [Swift.Range<Int>] = []  // each "[…]" on the line, brackets included
        var index = 0
        while index < line.count {
            if line[index] == UInt8(ascii: "["), let close = closingBracket(in: line, from: index) {
                groups.append(index..<(close + 1))
                index = close + 1
            } else {
                index += 1
            }
        }
        var position = 0
        while position < groups.count {
            let group = groups[position]
            let next = position + 1 < groups.count && groups[position + 1].lowerBound == group.upperBound ? groups[position + 1] : nil
            let following: UInt8? = group.upperBound < line.count ? line[group.upperBound] : nil
            let span = next.map { group.lowerBound..<$0.upperBound } ?? group
            defer { position += next == nil ? 1 : 2 }
            guard span.contains(offset) else { continue }
            if let next {
                // `[text][ref]`, or `[ref][]` (collapsed): the label is ref, else text.
                let ref = normalized(line[(next.lowerBound + 1)..<(next.upperBound - 1)])
                let label = ref.isEmpty ? normalized(line[(group.lowerBound + 1)..<(group.upperBound - 1)]) : ref
                return label.isEmpty ? nil : (label, span)
            }
            // `[ref]` alone (shortcut), unless an inline link or a definition follows.
            if following == UInt8(ascii: "(") || following == UInt8(ascii: ":") { return nil }
            let label = normalized(line[(group.lowerBound + 1)..<(group.upperBound - 1)])
            return label.isEmpty ? nil : (label, span)
        }
        return nil
    }

    /// The index of the `]` that closes the `[` at `open` (no nesting, no
    /// escaped brackets, at most `maxLabelLength` bytes), or nil.
    private static func closingBracket(in line: [UInt8], from open: Int) -> Int? {
        var index = open + 1
        let stop = min(line.count, open + 1 + maxLabelLength)
        while index < stop {
            switch line[index] {
            case UInt8(ascii: "]"): return index
            case UInt8(ascii: "["): return nil
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return nil
    }

    /// CommonMark's label matching: case-insensitive, runs of white space as one space, trimmed.
    static func normalized(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).lowercased()
            .split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
