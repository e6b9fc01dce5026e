import TextTrimming

/// A minimal reader for the start of an XML or HTML document: enough to
/// find the root element's name and attributes, for SVG sizes and for
/// telling XHTML, SVG and feeds apart in `ContentSniffer`.
extension ImageProbe {
    struct MarkupScanner {
        let bytes: [UInt8]
        var position = 0

        private func byte(_ offset: Int = 0) -> UInt8? {
            position + offset < bytes.count ? bytes[position + offset] : nil
        }

        private func isSpace(_ byte: UInt8) -> Bool {
            WhiteSpaceByte.isHTMLSpace(byte)
        }

        private func lookingAt(_ literal: String) -> Bool {
            let pattern = Array(literal.utf8)
            guard position + pattern.count <= bytes.count else { return false }
            return bytes[position..<(position + pattern.count)].elementsEqual(pattern)
        }

        private mutating func skipSpaces() {
            while let current = byte(), isSpace(current) { position += 1 }
        }

        /// Moves past the next occurrence of `literal`, or to the end.
        private mutating func skip(past literal: String) {
            let pattern = Array(literal.utf8)
            while position < bytes.count, !lookingAt(literal) { position += 1 }
            position = min(bytes.count, position + pattern.count)
        }

        /// Skips whitespace, `<?...?>`, comments and a doctype (with its
        /// internal subset), stopping at the root element's `<`.
        mutating func skipProlog() {
            while true {
                skipSpaces()
                if lookingAt("<?") {
                    skip(past: "?>")
                } else if lookingAt("<!--") {
                    skip(past: "-->")
                } else if lookingAt("<!") {
                    // A doctype; an internal subset in brackets may hold `>`.
                    while let current = byte(), current != UInt8(ascii: ">") {
                        position += 1
                        if current == UInt8(ascii: "[") { skip(past: "]") }
                    }
                    position += 1
                } else {
                    return
                }
            }
        }

        /// The lowercased name of the tag starting here, moving past it.
        mutating func tagName() -> String? {
            guard byte() == UInt8(ascii: "<") else { return nil }
            position += 1
            var name: [UInt8] = []
            while let current = byte(), !isSpace(current), current != UInt8(ascii: ">"), current != UInt8(ascii: "/") {
                name.append(current)
                position += 1
                if name.count > 64 { return nil }
            }
            return name.isEmpty ? nil : String(decoding: name, as: UTF8.self).lowercased()
        }

        /// The attributes up to the tag's end, names lowercased, values as
        /// written (quotes removed; entities left alone).
        mutating func attributes() -> [String: String] {
            var result: [String: String] = [:]
            while result.count < 64 {
                while let current = byte(), isSpace(current) || current == UInt8(ascii: "/") { position += 1 }
                guard let first = byte(), first != UInt8(ascii: ">") else { break }
                var name: [UInt8] = []
                while let current = byte(), !isSpace(current), current != UInt8(ascii: "="), current != UInt8(ascii: ">") {
                    name.append(current)
                    position += 1
                }
                skipSpaces()
                var value: [UInt8] = []
                if byte() == UInt8(ascii: "=") {
                    position += 1
                    skipSpaces()
                    if let quote = byte(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
                        position += 1
                        while let current = byte(), current != quote { value.append(current); position += 1 }
                        position += 1
                    } else {
                        while let current = byte(), !isSpace(current), current != UInt8(ascii: ">") { value.append(current); position += 1 }
                    }
                }
                let key = String(decoding: name, as: UTF8.self).lowercased()
                if result[key] == nil { result[key] = String(decoding: value, as: UTF8.self) }
            }
            return result
        }
    }
}
