/// One open document: its text as lines of UTF-8 bytes, and the URLs of
/// each line.
///
/// The per-line link index is what keeps a keystroke cheap: an edit
/// replaces only the lines it touches and rescans only those, so a
/// one-character change in a 1 MB file with 10,000 links costs one line,
/// not the file. URLs never span lines (`URLDetector`), so the index of
/// the lines an edit did not touch stays right.
///
/// A plain value owned by the `Server` actor.
struct TextDocument {
    struct Line {
        /// The line's bytes without its line break.
        var bytes: [UInt8]
        var ending: LineEnding
        var isASCII: Bool
        var links: [URLDetector.Match]
        /// The label this line defines, when it is a `[label]: url` definition.
        var definition: String?

        init(bytes: [UInt8], ending: LineEnding, scan: Bool) {
            self.bytes = bytes
            self.ending = ending
            isASCII = bytes.allSatisfy { $0 < 0x80 }
            links = scan ? URLDetector.matches(in: bytes) : []
            definition = links.isEmpty ? nil : ReferenceLinks.definitionLabel(in: bytes, first: links.first)
        }

        var byteCount: Int { bytes.count + ending.bytes.count }
    }

    enum LineEnding {
        case none, lf, crlf, cr

        var bytes: [UInt8] {
            switch self {
            case .none: []
            case .lf: [0x0A]
            case .crlf: [0x0D, 0x0A]
            case .cr: [0x0D]
            }
        }
    }

    /// At least one line; the last has no line break.
    var lines: [Line]
    var byteCount: Int

    init(text: String) {
        let bytes = Array(text.utf8)
        lines = Self.split(bytes[...], keepingTrailingEmptyLine: true)
        byteCount = bytes.count
    }

    /// The URL at `position` (line, column in `encoding`) and its range, or nil.
    func link(atLine lineNumber: Int, column: Int, encoding: PositionEncoding) -> (match: URLDetector.Match, line: Int)? {
        guard lineNumber < lines.count else { return nil }
        let line = lines[lineNumber]
        guard !line.links.isEmpty else { return nil }
        let offset = encoding.byteOffset(ofColumn: column, in: line.bytes, isASCII: line.isASCII)
        guard let match = line.links.first(where: { $0.hoverRange.contains(offset) }) else { return nil }
        return (match, lineNumber)
    }

    /// What a hover at `(lineNumber, column)` is about: a URL (or the label
    /// of one), else a Markdown reference whose definition is in the
    /// document; the URL and the range covered, in `encoding`.
    func hoverTarget(atLine lineNumber: Int, column: Int, encoding: PositionEncoding) -> (url: String, line: Int, start: Int, end: Int)? {
        if let (match, line) = link(atLine: lineNumber, column: column, encoding: encoding) {
            let columns = range(of: match, line: line, encoding: encoding)
            return (match.url, line, columns.start, columns.end)
        }
        guard lineNumber < lines.count else { return nil }
        let line = lines[lineNumber]
        let offset = encoding.byteOffset(ofColumn: column, in: line.bytes, isASCII: line.isASCII)
        guard let reference = ReferenceLinks.reference(at: offset, in: line.bytes),
            let definition = lines.first(where: { $0.definition == reference.label }),
            let url = definition.links.first?.url
        else { return nil }
        return (
            url, lineNumber,
            encoding.column(ofByteOffset: reference.range.lowerBound, in: line.bytes, isASCII: line.isASCII),
            encoding.column(ofByteOffset: reference.range.upperBound, in: line.bytes, isASCII: line.isASCII)
        )
    }

    /// The range a hover of `match` covers on line `lineNumber` (the URL and
    /// its label), in `encoding`.
    func range(of match: URLDetector.Match, line lineNumber: Int, encoding: PositionEncoding) -> (start: Int, end: Int) {
        let line = lines[lineNumber]
        let covered = match.hoverRange
        return (
            encoding.column(ofByteOffset: covered.lowerBound, in: line.bytes, isASCII: line.isASCII),
            encoding.column(ofByteOffset: covered.upperBound, in: line.bytes, isASCII: line.isASCII)
        )
    }

    /// Splits `bytes` at `\n`, `\r\n` and `\r`. With `keepingTrailingEmptyLine`
    /// a text that ends with a line break gets an empty last line (a whole
    /// document); without, it does not (a piece spliced before more lines).
    static func split(_ bytes: ArraySlice<UInt8>, keepingTrailingEmptyLine: Bool, scan: Bool = true) -> [Line] {
        var lines: [Line] = []
        var start = bytes.startIndex
        var index = start
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                let crlf = byte == 0x0D && index + 1 < bytes.endIndex && bytes[index + 1] == 0x0A
                lines.append(Line(bytes: Array(bytes[start..<index]), ending: crlf ? .crlf : byte == 0x0A ? .lf : .cr, scan: scan))
                index += crlf ? 2 : 1
                start = index
            } else {
                index += 1
            }
        }
        if start < bytes.endIndex || keepingTrailingEmptyLine || lines.isEmpty {
            lines.append(Line(bytes: Array(bytes[start..<bytes.endIndex]), ending: .none, scan: scan))
        }
        return lines
    }
}
