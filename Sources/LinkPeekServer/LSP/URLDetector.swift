/// Finds the URLs in one line of text, the way people expect an editor to:
///
/// - bare `http://` and `https://` URLs (any case), and `www.` hosts (read
///   as `https://www.…`);
/// - inside `<…>` autolinks, Markdown `[text](url "title")` and
///   `[ref]: url` definitions, reStructuredText `` `text <url>`_ ``, Org
///   `[[url][text]]`, quotes, comments and string literals;
/// - a `)` or `]` ends the URL unless it closes a `(` or `[` opened inside
///   it (Wikipedia's `Foo_(disambiguation)`); trailing `.`, `,`, `;`, `:`,
///   `!`, `?`, `*` and `'` are left out;
/// - a URL opened by a quote ends at the same quote;
/// - IDN hosts and non-ASCII paths are kept; Unicode spaces and CJK or
///   full-width punctuation end a URL;
/// - no match inside a longer word (`xhttp://`, `awww.`, `me@www.`).
///
/// Lines are UTF-8 bytes; matches are byte ranges. URLs never span lines,
/// which is what lets a document rescan only the lines an edit touched.
enum URLDetector {
    struct Match: Sendable, Equatable {
        /// Byte range in the line.
        var start: Int
        var end: Int
        /// The URL to fetch (a `www.` host gets `https://`).
        var url: String
    }

    /// URLs longer than this are not links (a runaway token in a minified file).
    static let maxLength = 8192

    static func matches(in line: [UInt8]) -> [Match] {
        var found: [Match] = []
        var index = 0
        let count = line.count
        while index < count {
            let byte = line[index] | 0x20
            guard byte == UInt8(ascii: "h") || byte == UInt8(ascii: "w") else {
                index += 1
                continue
            }
            if let match = match(in: line, at: index) {
                found.append(match)
                index = match.end
            } else {
                index += 1
            }
        }
        return found
    }

    private static let http = Array("http://".utf8)
    private static let https = Array("https://".utf8)
    private static let www = Array("www.".utf8)

    private static func match(in line: [UInt8], at start: Int) -> Match? {
        let before: UInt8? = start > 0 ? line[start - 1] : nil
        if let before, isWordByte(before) { return nil }
        let hostStart: Int
        let isWWW: Bool
        if hasPrefix(line, https, at: start) {
            hostStart = start + https.count
            isWWW = false
        } else if hasPrefix(line, http, at: start) {
            hostStart = start + http.count
            isWWW = false
        } else if hasPrefix(line, www, at: start), before.map({ !wwwBlockers.contains($0) }) ?? true {
            hostStart = start
            isWWW = true
        } else {
            return nil
        }
        guard hostStart < line.count, isHostStart(line[hostStart]) || (!isWWW && line[hostStart] == UInt8(ascii: "[")) else {
            return nil
        }
        let end = scanEnd(in: line, from: hostStart, openedBy: before)
        guard end > hostStart + (isWWW ? www.count : 0), end - start <= maxLength else { return nil }
        if isWWW && !hasDotAfterWWW(line, start: start, end: end) { return nil }
        let text = String(decoding: line[start..<end], as: UTF8.self)
        return Match(start: start, end: end, url: isWWW ? "https://" + text : text)
    }

    /// The end of the URL whose host starts at `from`, trailing punctuation left out.
    private static func scanEnd(in line: [UInt8], from: Int, openedBy opener: UInt8?) -> Int {
        var index = from
        var parens = 0
        var brackets = 0
        let closingQuote: UInt8? = opener == UInt8(ascii: "'") ? opener : nil
        scan: while index < line.count {
            let byte = line[index]
            switch byte {
            case 0...0x20, 0x7F, UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"),
                UInt8(ascii: "\\"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"), UInt8(ascii: "^"):
                break scan
            case UInt8(ascii: "("): parens += 1
            case UInt8(ascii: ")"):
                if parens == 0 { break scan }
                parens -= 1
            case UInt8(ascii: "["): brackets += 1
            case UInt8(ascii: "]"):
                if brackets == 0 { break scan }
                brackets -= 1
            case UInt8(ascii: "'") where closingQuote != nil:
                break scan
            case 0x80...:
                let (scalar, length) = decode(line, at: index)
                if endsURL(scalar) { break scan }
                index += length
                continue scan
            default: break
            }
            index += 1
        }
        while index > from, trailingPunctuation.contains(line[index - 1]) { index -= 1 }
        return index
    }

    /// Non-ASCII characters that end a URL: Unicode spaces, and the
    /// punctuation that CJK and typographic text puts right after one.
    private static func endsURL(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return true }
        switch scalar.value {
        case 0x80...0xA0, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0xFEFF: return true
        case 0x2018...0x201F, 0x2026, 0x2039, 0x203A, 0x00AB, 0x00BB: return true
        case 0x3000...0x303F: return true
        case 0xFF01, 0xFF08, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1C, 0xFF1E, 0xFF1F, 0xFF3B, 0xFF3D: return true
        default: return scalar.properties.isWhitespace
        }
    }

    private static func decode(_ line: [UInt8], at index: Int) -> (Unicode.Scalar?, Int) {
        let length = PositionEncoding.sequenceLength(line[index])
        guard index + length <= line.count else { return (nil, 1) }
        var iterator = line[index..<(index + length)].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return (scalar, length) }
        return (nil, 1)
    }

    private static let trailingPunctuation: Set<UInt8> = Set(".,;:!?*'".utf8)
    /// A `www.` right after these is part of something else (an address, a path, a host).
    private static let wwwBlockers: Set<UInt8> = Set("@./-:".utf8)

    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    private static func isHostStart(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (isWordByte(byte) && byte != UInt8(ascii: "_"))
    }

    private static func hasPrefix(_ line: [UInt8], _ prefix: [UInt8], at start: Int) -> Bool {
        guard line.count - start >= prefix.count else { return false }
        for offset in 0..<prefix.count where line[start + offset] | 0x20 != prefix[offset] | 0x20 {
            // `| 0x20` lowercases letters and leaves ":" and "/" and "." as they are.
            return false
        }
        return true
    }

    /// `www.example` is not a host people write; `www.example.com` is.
    private static func hasDotAfterWWW(_ line: [UInt8], start: Int, end: Int) -> Bool {
        var index = start + www.count
        while index < end - 1 {
            let byte = line[index]
            if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { return false }
            if byte == UInt8(ascii: ".") { return true }
            index += 1
        }
        return false
    }
}
