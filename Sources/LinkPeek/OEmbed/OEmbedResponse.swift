import FoundationEssentials
import JSON
import TextTrimming

/// An oEmbed JSON answer (oembed.com §2.3), read leniently: providers write
/// numbers as strings ("480") and leave out `version`; a field of the wrong
/// kind is dropped, not fatal. Only a body that is not UTF-8 or not a JSON
/// object at all, or one that gives nothing a preview can use, is refused.
/// The body is read by the one JSON parser (`JSONParser`, with its decisions: a
/// repeated key keeps its last value, an unpaired surrogate escape reads as
/// U+FFFD, a number past `Double`'s range as the largest finite double).
///
/// Every string is plain text: whitespace collapsed, at most
/// `TextCleaner.maximumBytes`, and shown escaped like any other field. The
/// `html` is read only for the player URL of a single `<iframe>`
/// (`OEmbedPlayer`) and never kept.
public struct OEmbedResponse: Sendable, Equatable {
    /// `photo`, `video`, `link` or `rich` (lowercased; others kept as written).
    public var type: String?
    public var title: String?
    public var authorName: String?
    public var authorURL: String?
    public var providerName: String?
    /// The thumbnail, with its size when both sides are given.
    public var thumbnail: MediaResource?
    /// For `photo`: the image itself (`url`, `width`, `height`).
    public var photo: MediaResource?
    /// For `video` and `rich`: the player page of a single `<iframe src="https://…">`.
    public var player: MediaResource?
    /// Seconds the provider suggests caching the answer (`cache_age`), if valid.
    public var cacheAge: Double?

    public init() {}

    /// Bytes of an answer read at most; past them the answer is refused.
    public static let maximumBytes = 64 * 1024
    /// Pixel sizes kept: larger or non-positive ones are dropped as nonsense.
    static let dimensions = 1...100_000

    /// The answer in `bytes`, or nil when they are not a usable oEmbed object.
    public static func parse(_ bytes: [UInt8]) -> OEmbedResponse? {
        // JSON is UTF-8 (RFC 8259 §8.1); the parser would read a stray byte as U+FFFD.
        guard bytes.count <= maximumBytes, String(validating: bytes, as: UTF8.self) != nil,
            case .success(.object(let object)) = JSONParser.parse(bytes)
        else { return nil }
        var response = OEmbedResponse()
        response.type = text(object["type"])?.lowercased()
        response.title = text(object["title"])
        response.authorName = text(object["author_name"])
        response.authorURL = webURL(object["author_url"]?.stringValue)
        response.providerName = text(object["provider_name"])
        if let url = webURL(object["thumbnail_url"]?.stringValue) {
            var thumbnail = MediaResource(url: url)
            let (width, height) = (dimension(object["thumbnail_width"]), dimension(object["thumbnail_height"]))
            if let width, let height {
                thumbnail.width = width
                thumbnail.height = height
            }
            response.thumbnail = thumbnail
        }
        let (width, height) = (dimension(object["width"]), dimension(object["height"]))
        if response.type == "photo", let url = webURL(object["url"]?.stringValue) {
            var photo = MediaResource(url: url)
            if let width, let height {
                photo.width = width
                photo.height = height
            }
            response.photo = photo
        }
        if response.type == "video" || response.type == "rich", let html = object["html"]?.stringValue,
            let src = OEmbedPlayer.iframeSource(html)
        {
            var player = MediaResource(url: src, type: "text/html")
            if let width, let height {
                player.width = width
                player.height = height
            }
            response.player = player
        }
        if let age = number(object["cache_age"]), age.isFinite, age > 0 { response.cacheAge = age }
        return response.isEmpty ? nil : response
    }

    /// True when the answer gives no field a preview shows.
    var isEmpty: Bool {
        title == nil && authorName == nil && providerName == nil && thumbnail == nil && photo == nil && player == nil
    }

    private static func text(_ value: JSONValue?) -> String? {
        guard let string = value?.stringValue else { return nil }
        return TextCleaner.collapsingWhitespace(TextCleaner.prefix(string))
    }

    /// An absolute http(s) URL without white space inside, else nil.
    static func webURL(_ value: String?) -> String? {
        guard let string = value?.trimmedWhitespace, !string.isEmpty,
            !string.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }),
            let url = URL(string: string), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { return nil }
        return string
    }

    /// A JSON number, integral or not, or a string holding one.
    private static func number(_ value: JSONValue?) -> Double? {
        if let double = value?.doubleValue { return double }
        if let string = value?.stringValue { return Double(string.trimmedWhitespace) }
        return nil
    }

    /// A pixel size within `dimensions`, converted without trapping.
    private static func dimension(_ value: JSONValue?) -> Int? {
        guard let double = number(value), double.isFinite, double.rounded() == double,
            let int = Int(exactly: double), dimensions.contains(int)
        else { return nil }
        return int
    }
}

/// The player page of an oEmbed `html` snippet: only a snippet that is one
/// `<iframe>` (white space around it allowed) with an https `src` yields
/// one. Script-based embeds (X, TikTok, Instagram) yield nothing: their
/// `html` is not a page a card could open.
enum OEmbedPlayer {
    static func iframeSource(_ html: String) -> String? {
        let trimmed = html.trimmedWhitespace
        let lower = trimmed.lowercased()
        // Indices of `lower` are used in `trimmed` below: only when lowercasing
        // kept every length (it does for ASCII; some letters, such as "İ", grow).
        guard lower.utf8.count == trimmed.utf8.count, lower.count == trimmed.count else { return nil }
        guard lower.hasPrefix("<iframe"), lower.hasSuffix("</iframe>") else { return nil }
        // Exactly one element: one opening tag, one closing tag, nothing else between them but text.
        guard occurrences(of: "<iframe", in: lower) == 1, occurrences(of: "</iframe>", in: lower) == 1,
            let tagEnd = lower.firstIndex(of: ">")
        else { return nil }
        let inner = lower[lower.index(after: tagEnd)...].dropLast("</iframe>".count)
        guard !inner.contains("<") else { return nil }
        let tag = String(trimmed[..<tagEnd])
        guard let src = attribute("src", in: tag), src.lowercased().hasPrefix("https://") else { return nil }
        return OEmbedResponse.webURL(TextCleaner.decodeEntities(src))
    }

    private static func occurrences(of needle: String, in text: String) -> Int {
        text.ranges(of: needle).count
    }

    /// An attribute's value in one start tag, quoted or not.
    private static func attribute(_ name: String, in tag: String) -> String? {
        let scalars = Array(tag.unicodeScalars)
        let lowered = Array(tag.lowercased().unicodeScalars)
        guard lowered.count == scalars.count else { return nil }
        let key = Array(name.unicodeScalars)
        var index = 0
        while index + key.count < lowered.count {
            let before = index == 0 ? " " : lowered[index - 1]
            if (before == " " || before == "\t" || before == "\n" || before == "\r"),
                Array(lowered[index..<index + key.count]) == key
            {
                var cursor = index + key.count
                while cursor < scalars.count, scalars[cursor] == " " { cursor += 1 }
                guard cursor < scalars.count, scalars[cursor] == "=" else { index += 1; continue }
                cursor += 1
                while cursor < scalars.count, scalars[cursor] == " " { cursor += 1 }
                guard cursor < scalars.count else { return nil }
                let quote = scalars[cursor]
                if quote == "\"" || quote == "'" {
                    let start = cursor + 1
                    guard let end = scalars[start...].firstIndex(of: quote) else { return nil }
                    return String(String.UnicodeScalarView(scalars[start..<end]))
                }
                let end = scalars[cursor...].firstIndex { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == ">" }
                    ?? scalars.endIndex
                return String(String.UnicodeScalarView(scalars[cursor..<end]))
            }
            index += 1
        }
        return nil
    }
}
