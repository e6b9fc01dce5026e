import TextTrimming

/// The HTML standard's "prescan a byte stream to determine its encoding":
/// finds the first `<meta charset>` or `<meta http-equiv=content-type
/// content="...charset=...">` in the first bytes, skipping comments and the
/// attributes of other tags, without building anything.
enum MetaPrescan {
    /// The encoding the first matching `<meta>` names, or nil when none is
    /// found (or the bytes end before one is complete).
    static func encoding(in bytes: [UInt8]) -> WHATWGEncoding? {
        var scanner = ByteCursor(bytes: bytes)
        return scanner.prescan()
    }

    /// The HTML standard's "get an XML encoding": the `encoding` in an XML
    /// declaration at the very start, if any (UTF-16 labels read as UTF-8,
    /// since the declaration itself was readable as ASCII).
    static func xmlDeclarationEncoding(in bytes: [UInt8]) -> WHATWGEncoding? {
        guard bytes.starts(with: Array("<?xml".utf8)),
              let end = bytes.firstIndex(of: UInt8(ascii: ">")) else { return nil }
        let declaration = Array(bytes[..<end])
        guard let found = ByteCursor.find(Array("encoding".utf8), in: declaration, from: 5, caseInsensitive: false) else { return nil }
        var position = found + 8
        while position < declaration.count, declaration[position] <= 0x20 { position += 1 }
        guard position < declaration.count, declaration[position] == UInt8(ascii: "=") else { return nil }
        position += 1
        while position < declaration.count, declaration[position] <= 0x20 { position += 1 }
        guard position < declaration.count else { return nil }
        let quote = declaration[position]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'"),
              let close = declaration[(position + 1)...].firstIndex(of: quote) else { return nil }
        let label = String(decoding: declaration[(position + 1)..<close], as: UTF8.self)
        guard let encoding = WHATWGEncoding(label: label) else { return nil }
        return encoding == .utf16BE || encoding == .utf16LE ? .utf8 : encoding
    }

    /// "Extracting a character encoding from a meta element": the label after
    /// `charset=` in a `content` attribute value.
    static func charsetLabel(inContent content: [UInt8]) -> String? {
        var position = 0
        let needle = Array("charset".utf8)
        while true {
            guard let found = ByteCursor.find(needle, in: content, from: position, caseInsensitive: true) else { return nil }
            position = found + needle.count
            while position < content.count, ByteCursor.isSpace(content[position]) { position += 1 }
            guard position < content.count else { return nil }
            guard content[position] == UInt8(ascii: "=") else { continue }
            position += 1
            while position < content.count, ByteCursor.isSpace(content[position]) { position += 1 }
            guard position < content.count else { return nil }
            let first = content[position]
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                guard let end = content[(position + 1)...].firstIndex(of: first) else { return nil }
                return String(decoding: content[(position + 1)..<end], as: UTF8.self)
            }
            let end = content[position...].firstIndex { ByteCursor.isSpace($0) || $0 == UInt8(ascii: ";") } ?? content.count
            return String(decoding: content[position..<end], as: UTF8.self)
        }
    }
}

/// A read position over the prescan bytes. Every method returns nil when it
/// runs off the end, which aborts the prescan as the standard says.
struct ByteCursor {
    let bytes: [UInt8]
    var position = 0

    static func isSpace(_ byte: UInt8) -> Bool {
        WhiteSpaceByte.isHTMLSpace(byte)
    }

    static func lower(_ byte: UInt8) -> UInt8 {
        ASCIIByte.lowercased(byte)
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        ASCIIByte.isLetter(byte)
    }

    /// Where `needle` first stands at or after `start`; `caseInsensitive`
    /// takes a lowercase needle and the haystack's letters in any case.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int, caseInsensitive: Bool) -> Int? {
        guard start <= haystack.count else { return nil }
        if caseInsensitive { return ASCIIByte.firstIndex(of: needle, in: haystack, from: start) }
        guard let first = needle.first, needle.count <= haystack.count - start else { return needle.isEmpty ? start : nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == first {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }

    func matches(_ literal: String, at offset: Int = 0) -> Bool {
        let start = position + offset
        let pattern = Array(literal.utf8)
        guard start + pattern.count <= bytes.count else { return false }
        return ASCIIByte.matches(pattern, in: bytes, at: start)
    }

    func byte(at offset: Int = 0) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    mutating func prescan() -> WHATWGEncoding? {
        while position < bytes.count {
            if matches("<!--") {
                guard let end = ByteCursor.find(Array("-->".utf8), in: bytes, from: position + 2, caseInsensitive: false) else { return nil }
                position = end + 3
                continue
            }
            if matches("<meta"), let next = byte(at: 5), ByteCursor.isSpace(next) || next == UInt8(ascii: "/") {
                position += 5
                switch metaEncoding() {
                case .aborted: return nil
                case .found(let encoding): return encoding
                case .none: position += 1
                }
                continue
            }
            if byte() == UInt8(ascii: "<"), let next = byte(at: 1),
               ByteCursor.isLetter(next) || (next == UInt8(ascii: "/") && byte(at: 2).map(ByteCursor.isLetter) == true) {
                guard skipTag() else { return nil }
                position += 1
                continue
            }
            if matches("<!") || matches("</") || matches("<?") {
                guard let end = bytes[position...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                position = end + 1
                continue
            }
            position += 1
        }
        return nil
    }

    enum MetaOutcome { case aborted, found(WHATWGEncoding), none }

    /// Reads the attributes of a `<meta` tag and decides what it declares.
    mutating func metaEncoding() -> MetaOutcome {
        var seen: Set<[UInt8]> = []
        var gotPragma = false
        var needPragma: Bool?
        var charset: WHATWGEncoding?
        while true {
            guard let attribute = nextAttribute() else { return .aborted }
            guard let (name, value) = attribute.map({ ($0.0, $0.1) }) else { break }
            guard seen.insert(name).inserted else { continue }
            switch String(decoding: name, as: UTF8.self) {
            case "http-equiv":
                if value == Array("content-type".utf8) { gotPragma = true }
            case "content":
                if charset == nil, let label = MetaPrescan.charsetLabel(inContent: value),
                   let encoding = WHATWGEncoding(label: label) {
                    charset = encoding
                    needPragma = true
                }
            case "charset":
                charset = WHATWGEncoding(label: String(decoding: value, as: UTF8.self))
                needPragma = false
            default:
                break
            }
        }
        guard let need = needPragma, !(need && !gotPragma), let found = charset else { return .none }
        // A document that names UTF-16 in a meta tag cannot be UTF-16 (the
        // tag was readable as ASCII), so the standard reads it as UTF-8.
        if found == .utf16BE || found == .utf16LE { return .found(.utf8) }
        if found == .userDefined { return .found(.windows1252) }
        return .found(found)
    }

    /// Skips a start or end tag's name and attributes; false when the bytes ended.
    mutating func skipTag() -> Bool {
        while let current = byte(), !ByteCursor.isSpace(current), current != UInt8(ascii: ">") { position += 1 }
        guard byte() != nil else { return false }
        while true {
            guard let attribute = nextAttribute() else { return false }
            if attribute == nil { return true }
        }
    }
}
