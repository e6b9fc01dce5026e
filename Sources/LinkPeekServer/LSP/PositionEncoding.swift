/// How a client counts the `character` of a position: in UTF-16 code units
/// (LSP's default), UTF-8 bytes or Unicode scalars (UTF-32). Negotiated at
/// `initialize` from the client's `general.positionEncodings`.
///
/// The daemon keeps lines as UTF-8 bytes; these functions convert between a
/// byte offset in one line and a column in the encoding.
enum PositionEncoding: String, Sendable, CaseIterable {
    case utf8 = "utf-8"
    case utf16 = "utf-16"
    case utf32 = "utf-32"

    /// The first encoding the client offers that the daemon supports (the
    /// client lists them most preferred first), else UTF-16.
    static func negotiate(offered: [String]?) -> PositionEncoding {
        offered?.lazy.compactMap(PositionEncoding.init(rawValue:)).first ?? .utf16
    }

    /// The byte offset of `column` in `line`. A column past the end of the
    /// line means its end (as LSP says); one inside a character (the middle
    /// of a surrogate pair, or of a UTF-8 sequence) means that character's start.
    func byteOffset(ofColumn column: Int, in line: [UInt8], isASCII: Bool = false) -> Int {
        if isASCII { return min(column, line.count) }
        if self == .utf8 {
            var offset = min(column, line.count)
            while offset > 0, offset < line.count, line[offset] & 0xC0 == 0x80 { offset -= 1 }
            return offset
        }
        var units = 0
        var offset = 0
        while offset < line.count {
            let length = Self.sequenceLength(line[offset])
            let width = self == .utf16 && length == 4 ? 2 : 1
            if units + width > column { return offset }
            units += width
            offset = min(offset + length, line.count)
        }
        return offset
    }

    /// The column of byte `offset` in `line` (which must start a character).
    func column(ofByteOffset offset: Int, in line: [UInt8], isASCII: Bool = false) -> Int {
        if isASCII || self == .utf8 { return offset }
        var units = 0
        var consumed = 0
        let end = min(offset, line.count)
        while consumed < end {
            let length = Self.sequenceLength(line[consumed])
            units += self == .utf16 && length == 4 ? 2 : 1
            consumed += length
        }
        return units
    }

    /// The columns of `offsets` (ascending, each starting a character) in
    /// one walk of `line`: linear in the line, however many offsets.
    func columns(ofByteOffsets offsets: [Int], in line: [UInt8], isASCII: Bool = false) -> [Int] {
        if isASCII || self == .utf8 { return offsets }
        var columns: [Int] = []
        columns.reserveCapacity(offsets.count)
        var units = 0
        var consumed = 0
        for offset in offsets {
            let end = min(offset, line.count)
            while consumed < end {
                let length = Self.sequenceLength(line[consumed])
                units += self == .utf16 && length == 4 ? 2 : 1
                consumed += length
            }
            columns.append(units)
        }
        return columns
    }

    /// Bytes in the UTF-8 sequence that `lead` starts (1 for a stray continuation byte).
    static func sequenceLength(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}
