import FoundationEssentials

/// Where fetched previews are kept. The in-memory LRU below is the default;
/// a persistent store implements the same protocol.
public protocol MetadataCache: Sendable {
    /// The entry for `url`, fresh or stale; nil when there is none.
    func entry(for url: String) -> CacheEntry?
    func store(_ entry: CacheEntry, for url: String)
}

/// A cached outcome: a preview, or a failure (kept briefly so a broken link
/// is not fetched again and again).
public struct CacheEntry: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case metadata(LinkMetadata)
        case failure(FetchError)
    }

    public var value: Value
    public var expiresAt: Date
    /// The preview as a cache hit serves it (`fromCache: true`), encoded
    /// once here so that a hit costs a copy, not an encoding: a daemon can
    /// answer tens of thousands of `getCached` a second this way, against a
    /// few thousand when each hit encodes the metadata again. Nil for failures.
    public private(set) var servedJSON: [UInt8]?

    public init(value: Value, expiresAt: Date) {
        self.value = value
        self.expiresAt = expiresAt
        if case .metadata(var metadata) = value {
            metadata.fromCache = true
            servedJSON = try? metadata.jsonBytes()
        }
    }

    public func isFresh(at now: Date = Date()) -> Bool { now < expiresAt }
}

/// How long a response may be served from the cache: `Cache-Control`
/// `max-age`/`s-maxage` clamped to [1 h, 7 d], 24 h when absent; failures 5 min.
public enum CacheLifetime {
    public static let minimum: TimeInterval = 3600
    public static let maximum: TimeInterval = 7 * 24 * 3600
    public static let fallback: TimeInterval = 24 * 3600
    public static let failure: TimeInterval = 5 * 60

    public static func seconds(cacheControl: String?) -> TimeInterval {
        guard let cacheControl else { return fallback }
        var maxAge: TimeInterval?
        for directive in cacheControl.lowercased().split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map {
                $0.trimmedWhitespace
            }
            if parts.first == "no-store" || parts.first == "no-cache" { return minimum }
            if parts.count == 2, parts[0] == "max-age" || parts[0] == "s-maxage",
                let value = TimeInterval(parts[1].trimmingScalars { $0 == "\"" }), !value.isNaN
            {
                maxAge = max(maxAge ?? 0, value)
            }
        }
        return min(maximum, max(minimum, maxAge ?? fallback))
    }
}
