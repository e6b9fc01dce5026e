/// Per-fetch choices a caller makes (CLI flags, `fetch` params).
public struct FetchOptions: Sendable, Equatable {
    /// Seconds before the fetch fails with `timedOut`; nil uses the settings' timeout.
    public var timeout: Double?
    public var cachePolicy: CachePolicy
    /// Fetch the chosen icon and image too (content type, byte size, pixel size).
    public var fetchSubresources: Bool
    /// Include the subresources' bytes (base64) in the metadata.
    public var includeData: Bool
    /// Send `.partial` events (the metadata known once the head is parsed).
    /// Off when nobody listens, since each costs a run of the rules.
    public var reportsPartialResults: Bool
    /// The `Accept-Language` header to send; part of the cache key.
    public var acceptLanguage: String?
    /// Attach a ready thumbnail made this way to the icon and the image
    /// (served from the image cache; never stored in the preview's cache entry).
    public var thumbnail: ImageTransform?

    public init(
        timeout: Double? = nil,
        cachePolicy: CachePolicy = .default,
        fetchSubresources: Bool = true,
        includeData: Bool = false,
        reportsPartialResults: Bool = true,
        acceptLanguage: String? = nil,
        thumbnail: ImageTransform? = nil
    ) {
        self.acceptLanguage = acceptLanguage
        self.thumbnail = thumbnail
        self.timeout = timeout
        self.cachePolicy = cachePolicy
        self.fetchSubresources = fetchSubresources
        self.includeData = includeData
        self.reportsPartialResults = reportsPartialResults
    }
}

/// How a fetch uses the cache.
public enum CachePolicy: String, Sendable, Codable, CaseIterable {
    /// Serve a fresh cached preview, else fetch and store.
    case `default`
    /// Always fetch, then store.
    case reload
    /// Never touch the network: what is cached (fresh or `stale`), or a `notCached` failure.
    case cacheOnly
    /// Answer at once with what is cached, even stale (`stale: true`), and
    /// refresh it in the background; fetch when nothing is cached.
    case staleWhileRevalidate
}
