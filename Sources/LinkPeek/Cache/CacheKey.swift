import TextTrimming

/// The key a preview is cached under: the normalised URL plus the request's
/// `Accept-Language`, so a French preview never answers an English request.
///
/// `fetch`, `getCached`, `save` and the CLI all build keys here, so one
/// spelling of a page (`HTTP://Example.COM:80/#top`) finds what another
/// (`http://example.com/`) stored. protocol/README.md documents the rules.
public struct CacheKey: Hashable, Sendable, CustomStringConvertible {
    /// The normalised URL (`URLNormalizer`).
    public let url: String
    /// The `Accept-Language` sent, trimmed; empty when none was.
    public let language: String

    public init(url: String, language: String = "") {
        self.url = url
        self.language = language
    }

    /// The key for a URL as a client wrote it; nil when it is not an
    /// absolute http(s) URL that the normaliser can read.
    public init?(rawURL: String, language: String? = nil) {
        guard let normalised = URLNormalizer.normalize(rawURL) else { return nil }
        self.init(url: normalised, language: (language ?? "").trimmedWhitespace)
    }

    /// The stored form: the URL, and the language after a newline (which a
    /// normalised URL cannot contain).
    public var description: String { language.isEmpty ? url : url + "\n" + language }

    /// The same page asked for in the same language, at another URL (a redirect target).
    public func with(url other: String) -> CacheKey? {
        URLNormalizer.normalize(other).map { CacheKey(url: $0, language: language) }
    }
}
