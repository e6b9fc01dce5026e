extension TextDocument {
    /// A position resolved to a line index and a byte offset in it.
    struct Location: Equatable {
        var line: Int
        var offset: Int
    }

    /// `(line, column)` as a location, clamped the way LSP says: a line past
    /// the end means the end of the document, a column past the end of a
    /// line means the end of that line.
    func location(line: Int, column: Int, encoding: PositionEncoding) -> Location {
        guard line < lines.count else {
            let last = lines.count - 1
            return Location(line: last, offset: lines[last].bytes.count)
        }
        let text = lines[line]
        return Location(line: line, offset: encoding.byteOffset(ofColumn: column, in: text.bytes, isASCII: text.isASCII))
    }

    /// Replaces the text from `start` to `end` with `text`; only the lines
    /// the edit touches are rebuilt and rescanned. An `end` before `start`
    /// is read as the same range reversed.
    mutating func replace(from start: Location, to end: Location, with text: String) {
        let (start, end) = (start.line, start.offset) <= (end.line, end.offset) ? (start, end) : (end, start)
        var first = start.line
        var last = end.line
        var joined: [UInt8] = []
        joined.reserveCapacity(start.offset + text.utf8.count + lines[last].byteCount - end.offset)
        // A lone CR just before the edit, or ending its last line, could pair
        // with a LF the edit brings next to it: resplit that line too, so the
        // lines are always what a fresh split of the text would give.
        if first > 0, lines[first - 1].ending == .cr {
            first -= 1
            joined += lines[first].bytes + lines[first].ending.bytes
        }
        joined += lines[start.line].bytes[..<start.offset]
        joined += text.utf8
        joined += lines[end.line].bytes[end.offset...]
        joined += lines[end.line].ending.bytes
        if lines[end.line].ending == .cr, last + 1 < lines.count {
            last += 1
            joined += lines[last].bytes + lines[last].ending.bytes
        }
        // The last touched line keeps its line break in `joined`, so the
        // split must not add an empty line after it, unless it was the last line.
        let replacement = Self.split(joined[...], keepingTrailingEmptyLine: lines[last].ending == .none)
        let removedBytes = lines[first...last].reduce(0) { $0 + $1.byteCount }
        lines.replaceSubrange(first...last, with: replacement)
        byteCount += replacement.reduce(0) { $0 + $1.byteCount } - removedBytes
    }

    /// The text, joined again (for tests).
    var text: String {
        String(decoding: lines.flatMap { $0.bytes + $0.ending.bytes }, as: UTF8.self)
    }
}
