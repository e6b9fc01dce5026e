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
        let first = lines[start.line]
        let last = lines[end.line]
        var joined: [UInt8] = []
        joined.reserveCapacity(start.offset + text.utf8.count + last.byteCount - end.offset)
        joined += first.bytes[..<start.offset]
        joined += text.utf8
        joined += last.bytes[end.offset...]
        joined += last.ending.bytes
        // The last touched line keeps its line break in `joined`, so the
        // split must not add an empty line after it, unless it was the last line.
        let replacement = Self.split(joined[...], keepingTrailingEmptyLine: last.ending == .none)
        let removedBytes = lines[start.line...end.line].reduce(0) { $0 + $1.byteCount }
        lines.replaceSubrange(start.line...end.line, with: replacement)
        byteCount += replacement.reduce(0) { $0 + $1.byteCount } - removedBytes
    }

    /// Replaces the whole text.
    mutating func replaceAll(with text: String) {
        self = TextDocument(text: text)
    }

    /// The text, joined again (for tests).
    var text: String {
        String(decoding: lines.flatMap { $0.bytes + $0.ending.bytes }, as: UTF8.self)
    }
}
