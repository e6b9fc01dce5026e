/// Text helpers the engines share: APIs give HTML-escaped titles (Stack
/// Exchange), multi-line messages (a commit's) and long bodies.
enum SiteText {
    /// `text` with the five XML entities and numeric references decoded.
    static func unescaped(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(10).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let name = after[..<semi]
            if let decoded = entity(name) {
                out.unicodeScalars.append(decoded)
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }

    private static func entity(_ name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value = digits.hasPrefix("x") || digits.hasPrefix("X")
                ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
            return value.flatMap(Unicode.Scalar.init)
        }
    }

    /// The first line of `text`, trimmed; nil when empty.
    static func firstLine(_ text: String) -> String? {
        let line = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters() } ?? ""
        return line.isEmpty ? nil : line
    }

    /// At most `limit` characters of `text` with its runs of white space
    /// made single spaces, cut at a word with "…"; nil when empty.
    static func summary(_ text: String?, limit: Int = 300) -> String? {
        guard let text else { return nil }
        let words = text.split(whereSeparator: { $0.isWhitespace })
        guard !words.isEmpty else { return nil }
        var out = ""
        for word in words {
            if out.count + word.count + 1 > limit {
                return out + "…"
            }
            out += out.isEmpty ? String(word) : " " + word
        }
        return out
    }
}

extension Substring {
    func trimmingCharacters() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}

