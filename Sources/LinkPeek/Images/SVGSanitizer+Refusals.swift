import TextTrimming

/// The SVGs `SVGSanitizer` refuses outright rather than rewrites.
extension SVGSanitizer {
    /// The internal subset's entity declarations, checked.
    static func checkDoctype(_ bytes: [UInt8]) -> Refusal? {
        var entities = 0
        var index = 0
        while let start = find(bytes, "<!ENTITY", from: index) {
            entities += 1
            if entities > 64 { return .tooManyEntities }
            var end = start + 8
            var delimiter: UInt8?
            // The declaration ends at the first `>` outside its quoted value.
            while end < bytes.count {
                let byte = bytes[end]
                if let open = delimiter {
                    if byte == open { delimiter = nil }
                    // `&name;` or `%name;` inside a value refers to another entity
                    // (character references `&#…;` and a plain "100%" are fine).
                    if byte == UInt8(ascii: "&") || byte == UInt8(ascii: "%"),
                       end + 1 < bytes.count, isNameStart(bytes[end + 1])
                    {
                        return .nestedEntity
                    }
                } else if byte == quote || byte == apostrophe {
                    delimiter = byte
                } else if byte == UInt8(ascii: ">") {
                    break
                } else if byte == UInt8(ascii: "%") {
                    return .parameterEntity
                }
                end += 1
            }
            let declaration = bytes[start..<min(end, bytes.count)]
            if contains(declaration, "SYSTEM") || contains(declaration, "PUBLIC") { return .externalEntity }
            index = end
        }
        return nil
    }

    static func checkCSSEscapes(_ bytes: [UInt8]) -> Refusal? {
        var index = 0
        while let start = find(bytes, "<style", from: index) {
            let end = find(bytes, "</style", from: start) ?? bytes.count
            if bytes[start..<end].contains(backslash) { return .cssEscape }
            index = end
        }
        index = 0
        while let start = find(bytes, "style", from: index) {
            var cursor = start + 5
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
            index = cursor
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "=") else { continue }
            cursor += 1
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == quote || bytes[cursor] == apostrophe else { continue }
            let delimiter = bytes[cursor]
            var end = cursor + 1
            while end < bytes.count, bytes[end] != delimiter {
                if bytes[end] == backslash { return .cssEscape }
                end += 1
            }
            index = end
        }
        return nil
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        ASCIIByte.isLetter(byte) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte >= 0x80
    }
}
