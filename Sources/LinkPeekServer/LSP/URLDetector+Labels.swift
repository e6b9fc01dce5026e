/// The text that markup shows for a URL — Markdown `[label](url)`, Org
/// `[[url][label]]`, reStructuredText `` `label <url>`_ `` — so that
/// hovering the words of a link shows its card, as hovering the URL does.
extension URLDetector {
    /// How far back or forward a label is looked for: keeps a line full of
    /// half-written links linear to scan.
    static let maxLabelLength = 1000

    /// The byte range of the label of `match` (brackets included), or nil.
    /// It never reaches before `floor` (the end of the previous link).
    static func label(of match: Match, in line: [UInt8], after floor: Int) -> Swift.Range<Int>? {
        let (start, end) = (match.start, match.end)
        func byte(_ index: Int) -> UInt8? { index >= 0 && index < line.count ? line[index] : nil }
        // Markdown: `[label](url` — back from "](" to the "[" that opens the label.
        if byte(start - 1) == UInt8(ascii: "("), byte(start - 2) == UInt8(ascii: "]") {
            var depth = 0
            var index = start - 3
            let stop = max(floor, start - 2 - maxLabelLength)
            while index >= stop {
                switch line[index] {
                case UInt8(ascii: "]"): depth += 1
                case UInt8(ascii: "["):
                    if depth == 0 {
                        let opener = byte(index - 1) == UInt8(ascii: "!") ? index - 1 : index
                        return opener..<(start - 1)
                    }
                    depth -= 1
                default: break
                }
                index -= 1
            }
            return nil
        }
        // Org: `[[url][label]]` — forward from "][" to the closing "]]".
        if byte(start - 1) == UInt8(ascii: "["), byte(start - 2) == UInt8(ascii: "["),
            byte(end) == UInt8(ascii: "]"), byte(end + 1) == UInt8(ascii: "[") {
            var index = end + 2
            let stop = min(line.count - 1, end + 2 + maxLabelLength)
            while index < stop {
                if line[index] == UInt8(ascii: "]"), line[index + 1] == UInt8(ascii: "]") { return (end + 1)..<(index + 2) }
                index += 1
            }
            return nil
        }
        // reStructuredText: `` `label <url>`_ `` — back from " <" to the backtick.
        if byte(start - 1) == UInt8(ascii: "<"), byte(end) == UInt8(ascii: ">"), byte(end + 1) == UInt8(ascii: "`") {
            var index = start - 2
            let stop = max(floor, start - 1 - maxLabelLength)
            while index >= stop {
                if line[index] == UInt8(ascii: "`") { return index..<(start - 1) }
                index -= 1
            }
        }
        return nil
    }
}
