/// `getCached` (request): what the cache holds for a URL, fresh or stale,
/// never touching the network: the `LinkMetadata` (`fromCache: true`, and
/// `stale: true` past its lifetime), a cached failure as the error `fetch`
/// would answer (`data.fromCache: true`), or `null`.
public struct GetCachedParams: Codable, Sendable, Equatable {
    public static let method = "getCached"

    public var url: String
    /// The `Accept-Language` the preview was fetched with (part of the key).
    public var acceptLanguage: String?

    public init(url: String, acceptLanguage: String? = nil) {
        self.url = url
        self.acceptLanguage = acceptLanguage
    }

    public func validationError() -> String? {
        ParamRanges.checkURL(url, field: "url") ?? ParamRanges.checkHeaderValue(acceptLanguage, field: "acceptLanguage")
    }
}
