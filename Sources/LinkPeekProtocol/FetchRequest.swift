// Contributor note (LinkPeekProtocol): plain Codable types, one file per
// message with its `method` and a `///` summary, no dependencies. A new
// message needs its type here (listed in `RequestParams.swift`), its schema
// in `protocol/schema/`, its section in `protocol/README.md`, and a case in
// the server's dispatch.

/// `fetch` (request): fetch the link preview of one URL → `LinkMetadata`.
/// One fetch is one provider, which can start only once.
public struct FetchParams: Codable, Sendable, Equatable {
    public static let method = "fetch"

    public var url: String
    /// Defaults to the request id.
    public var providerId: ProviderID?
    /// Seconds (`ParamRanges.timeout`); defaults to the session's timeout.
    public var timeout: Double?
    public var cachePolicy: FetchCachePolicy?
    /// Default true.
    public var fetchSubresources: Bool?
    /// Default false.
    public var includeData: Bool?
    public var workDoneToken: ProgressToken?
    public var partialResultToken: ProgressToken?
    /// Sent as the `Accept-Language` header; part of the cache key.
    public var acceptLanguage: String?
    /// Attach a ready thumbnail to `icon` and `image`.
    public var thumbnail: ThumbnailParams?
    /// True: the fetch is for a hover card, so the session's `hover.fetch`,
    /// `hover.allow` and `hover.deny` decide whether it may use the network.
    public var hover: Bool?

    public init(
        url: String, providerId: ProviderID? = nil, timeout: Double? = nil, cachePolicy: FetchCachePolicy? = nil,
        fetchSubresources: Bool? = nil, includeData: Bool? = nil,
        workDoneToken: ProgressToken? = nil, partialResultToken: ProgressToken? = nil, acceptLanguage: String? = nil,
        thumbnail: ThumbnailParams? = nil, hover: Bool? = nil
    ) {
        self.hover = hover
        self.acceptLanguage = acceptLanguage
        self.thumbnail = thumbnail
        self.url = url
        self.providerId = providerId
        self.timeout = timeout
        self.cachePolicy = cachePolicy
        self.fetchSubresources = fetchSubresources
        self.includeData = includeData
        self.workDoneToken = workDoneToken
        self.partialResultToken = partialResultToken
    }

    /// The first rule these params break beyond their types, naming the field.
    public func validationError() -> String? {
        ParamRanges.timeout.check(timeout, field: "timeout")
            ?? ParamRanges.checkURL(url, field: "url")
            ?? ParamRanges.checkHeaderValue(acceptLanguage, field: "acceptLanguage")
            ?? thumbnail?.validationError()
    }
}

/// How a fetch uses the cache (mirrors the engine's `CachePolicy`).
public enum FetchCachePolicy: String, Codable, Sendable, CaseIterable, ParamValueDescribing {
    case `default`, reload, cacheOnly, staleWhileRevalidate

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let raw = try? container.decode(String.self), let policy = FetchCachePolicy(rawValue: raw) else {
            throw DecodingError.typeMismatch(
                FetchCachePolicy.self,
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: Self.expectedDescription))
        }
        self = policy
    }

    public static var expectedDescription: String {
        "one of " + allCases.map(\.rawValue).joined(separator: ", ")
    }
}
