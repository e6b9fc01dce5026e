import HTMLHead
import TextTrimming

/// `<meta http-equiv="refresh" content="N; url=…">`, read the way browsers
/// read it (WHATWG HTML, "shared declarative refresh steps"), and the rule
/// that makes one a redirect: shorteners such as t.co answer with a bare
/// refresh, while a page with a title of its own that reloads itself is a
/// page to preview.
struct MetaRefresh: Equatable {
    /// Whole seconds before the refresh (a fraction is dropped, as browsers
    /// do); saturated, so an absurd number cannot overflow.
    var delay: Int
    /// The target as written (quotes and `URL=` removed), or nil when the
    /// content names none (the page reloads itself).
    var url: String?

    /// The longest delay that still reads as a redirect rather than a page
    /// that is shown and then moves on.
    static let maximumRedirectDelay = 5

    /// Parses a `content` attribute; nil when it is not a refresh at all
    /// (no leading number, or garbage right after it).
    init?(content: String) {
        let bytes = Array(content.utf8)
        var position = 0
        func skipWhitespace() {
            while position < bytes.count, WhiteSpaceByte.isHTMLSpace(bytes[position]) { position += 1 }
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        skipWhitespace()
        var delay = 0
        let digitsStart = position
        while position < bytes.count, isDigit(bytes[position]) {
            // Saturating: "99999999999999999999" is a long wait, not a trap.
            let (times, overflowed) = delay.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times.addingReportingOverflow(Int(bytes[position] - UInt8(ascii: "0")))
            delay = overflowed || carried ? Int.max : sum
            position += 1
        }
        if position == digitsStart, position >= bytes.count || bytes[position] != UInt8(ascii: ".") { return nil }
        // The fraction, ignored.
        while position < bytes.count, isDigit(bytes[position]) || bytes[position] == UInt8(ascii: ".") { position += 1 }
        self.delay = delay
        self.url = nil
        guard position < bytes.count else { return }
        let separator = bytes[position]
        guard separator == UInt8(ascii: ";") || separator == UInt8(ascii: ",")
            || WhiteSpaceByte.isHTMLSpace(separator)
        else { return nil }
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: ";") || bytes[position] == UInt8(ascii: ",") {
            position += 1
        }
        skipWhitespace()
        guard position < bytes.count else { return }
        // `URL` (any case), spaces, `=`, spaces; without the `=` the text is the URL itself.
        let beforeLabel = position
        if position + 3 <= bytes.count,
            bytes[position..<position + 3].map(ASCIIByte.lowercased).elementsEqual("url".utf8)
        {
            position += 3
            skipWhitespace()
            if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                position += 1
                skipWhitespace()
            } else {
                position = beforeLabel
            }
        }
        var end = bytes.count
        if position < bytes.count, bytes[position] == UInt8(ascii: "'") || bytes[position] == UInt8(ascii: "\"") {
            let quote = bytes[position]
            position += 1
            end = bytes[position...].firstIndex(of: quote) ?? bytes.count
        }
        let target = String(decoding: bytes[position..<end], as: UTF8.self).trimmedWhitespace
        url = target.isEmpty ? nil : target
    }

    init(delay: Int, url: String?) {
        self.delay = delay
        self.url = url
    }
}

extension MetaRefresh {
    /// Where a page that is a refresh redirect sends the reader: the first
    /// `<meta http-equiv="refresh">` that parses, when it waits at most
    /// `maximumRedirectDelay` seconds, names a web URL (resolved against
    /// `<base href>`, then `pageURL`) other than the page itself, and the
    /// page declares no title of its own (`<title>`, `og:title`,
    /// `twitter:title`) — or only the target's URL as its title, as
    /// shorteners write. Nil when the page is to be previewed as it is.
    static func redirectTarget(in document: HeadDocument, pageURL: String) -> String? {
        var refresh: MetaRefresh?
        var baseHref: String?
        var titles: [String] = []
        for element in document.elements {
            switch element.name {
            case "meta":
                if refresh == nil, let equiv = element["http-equiv"],
                    equiv.trimmedWhitespace.lowercased() == "refresh",
                    let parsed = element["content"].flatMap(MetaRefresh.init(content:))
                {
                    refresh = parsed
                }
                let key = (element["property"] ?? element["name"])?.trimmedWhitespace.lowercased()
                if key == "og:title" || key == "twitter:title", let content = element["content"] {
                    titles.append(content)
                }
            case "title":
                if let text = element.text { titles.append(text) }
            case "base":
                if baseHref == nil { baseHref = element["href"] }
            default:
                break
            }
        }
        guard let refresh, refresh.delay <= maximumRedirectDelay, let written = refresh.url,
            let target = URLResolver(pageURL: pageURL, baseHref: baseHref).resolveWeb(written),
            !sameDocument(target, pageURL)
        else { return nil }
        let ownTitles = titles.map(\.trimmedWhitespace).filter { !$0.isEmpty }
        guard ownTitles.allSatisfy({ $0 == written || sameDocument($0, target) }) else { return nil }
        return target
    }

    /// The same URL once normalised, fragments aside (a refresh to `#top` reloads the page).
    private static func sameDocument(_ one: String, _ other: String) -> Bool {
        guard let first = URLNormalizer.normalize(one), let second = URLNormalizer.normalize(other) else {
            return one == other
        }
        return first == second
    }
}
