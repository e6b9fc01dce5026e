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
/// - no match inside a longer word (`xhttp://`, `awww.`, `me@www.`);
/// - the words markup shows for a URL are its `label` (`URLDetector+Labels`).
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
        /// The markup's text for the URL, when it has one (`URLDetector+Labels`):
        /// hovering it shows the same card.
        var label: Swift.Range<Int>? = nil

        /// Where a hover finds this link: the URL and its label.
        var hoverRange: Swift.Range<Int> {
            guard let label else { return start..<end }
            return min(start, label.lowerBound)..<max(end, label.upperBound)
        }
    }

    /// URLs longer than this are not links (a runaway token in a minified file).
    static let maxLength = 8192

    /// Linear in the line's length, whatever it holds: a candidate that
    /// fails is rejected after a bounded look, and a token too long to be a
    /// link is skipped whole.
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
            switch match(in: line, at: index) {
            case .found(var match):
                match.label = label(of: match, in: line, after: found.last?.end ?? 0)
                found.append(match)
                index = max(match.end, match.label?.upperBound ?? 0)
            case .skip(to: let end):
                index = max(end, index + 1)
            case .none:
                index += 1
            }
        }
        return found
    }

    private enum Candidate {
        case found(Match)
        /// Not a link, and neither is anything before `end`.
        case skip(to: Int)
        case none
    }

    private static let http = Array("http://".utf8)
    private static let https = Array("https://".utf8)
    private static let www = Array("www.".utf8)

    private static func match(in line: [UInt8], at start: Int) -> Candidate {
        let before: UInt8? = start > 0 ? line[start - 1] : nil
        if let before, isWordByte(before) { return .none }
        let hostStart: Int
        let isWWW: Bool
        if hasPrefix(line, https, at: start) {
            hostStart = start + https.count
            isWWW = false
        } else if hasPrefix(line, http, at: start) {
            hostStart = start + http.count
            isWWW = false
        } else if hasPrefix(line, www, at: start), before.map({ !wwwBlockers.contains($0) }) ?? true,
            hasDotInHost(line, from: start + www.count) {
            hostStart = start
            isWWW = true
        } else {
            return .none
        }
        guard hostStart < line.count, isHostStart(line[hostStart]) || (!isWWW && line[hostStart] == UInt8(ascii: "[")) else {
            return .none
        }
        let end = scanEnd(in: line, from: hostStart, openedBy: before, limit: start + maxLength + 1)
        if end - start > maxLength { return .skip(to: end) }
        guard end > hostStart + (isWWW ? www.count : 0) else { return .none }
        let text = String(decoding: line[start..<end], as: UTF8.self)
        return .found(Match(start: start, end: end, url: isWWW ? "https://" + text : text))
    }

    /// The end of the URL whose host starts at `from`, trailing punctuation left out.
    /// Scans at most up to `limit`: a URL that reaches it is too long anyway.
    private static func scanEnd(in line: [UInt8], from: Int, openedBy opener: UInt8?, limit: Int) -> Int {
        var index = from
        let stop = min(line.count, limit)
        var parens = 0
        var brackets = 0
        let closingQuote: UInt8? = opener == UInt8(ascii: "'") ? opener : nil
        scan: while index < stop {
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
        if index >= limit { return index }
        while index > from, trailingPunctuation.contains(line[index - 1]) { index -= 1 }
        return index
    }
}
