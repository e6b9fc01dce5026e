import FoundationEssentials
import TextTrimming

/// What a response's caching headers allow (RFC 9111, the parts a preview
/// cache needs): whether it may be stored, whether each use must revalidate
/// it, how long it is fresh, and the validators for revalidating it.
public struct Freshness: Sendable, Equatable {
    /// `Cache-Control: no-store`: never written to the cache.
    public var noStore = false
    /// `Cache-Control: no-cache`: stored, but revalidated on every use.
    public var noCache = false
    /// Seconds fresh, already clamped to `[CacheLifetime.minimum, .maximum]`.
    public var lifetime: TimeInterval = CacheLifetime.fallback
    public var etag: String?
    public var lastModified: String?

    public init() {}

    /// The freshness of a response with these (lowercased) header fields:
    /// `s-maxage`, then `max-age`, then `Expires` minus `Date` (or minus
    /// `now` when `Date` is absent or unreadable), clamped; 24 h when none
    /// says. An `Expires` that cannot be read means already expired (RFC
    /// 9111 §5.3), so the minimum.
    public init(fields: [String: String], now: Date) {
        var maxAge: TimeInterval?
        var sharedMaxAge: TimeInterval?
        for directive in (fields["cache-control"] ?? "").lowercased().split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map(\.trimmedWhitespace)
            switch parts.first {
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "max-age" where parts.count == 2: maxAge = Self.seconds(parts[1]) ?? maxAge
            case "s-maxage" where parts.count == 2: sharedMaxAge = Self.seconds(parts[1]) ?? sharedMaxAge
            default: break
            }
        }
        var seconds = sharedMaxAge ?? maxAge
        if seconds == nil, let expires = fields["expires"] {
            let base = fields["date"].flatMap(HTTPDate.parse) ?? now
            seconds = HTTPDate.parse(expires).map { $0.timeIntervalSince(base) } ?? 0
        }
        lifetime = CacheLifetime.clamp(seconds ?? CacheLifetime.fallback)
        etag = fields["etag"].map(\.trimmedWhitespace).flatMap { $0.isEmpty ? nil : $0 }
        lastModified = fields["last-modified"].map(\.trimmedWhitespace).flatMap { HTTPDate.parse($0) == nil ? nil : $0 }
    }

    /// A delta-seconds value (quotes tolerated); nil when it is not a number.
    private static func seconds(_ text: String) -> TimeInterval? {
        TimeInterval(text.trimmingScalars { $0 == "\"" }).flatMap { $0.isFinite ? $0 : nil }
    }

    /// The request headers that revalidate a stored response with these validators.
    public var conditionalHeaders: [String] {
        var headers: [String] = []
        if let etag, !etag.contains(where: \.isNewline) { headers.append("If-None-Match: \(etag)") }
        if let lastModified, !lastModified.contains(where: \.isNewline) {
            headers.append("If-Modified-Since: \(lastModified)")
        }
        return headers
    }
}

/// How long an outcome is served from the cache: responses from their
/// headers clamped to [1 h, 7 d], 24 h when they say nothing; failures
/// briefly, by reason — a host that does not resolve or answer may be back
/// in a minute, a 404 rarely is.
public enum CacheLifetime {
    public static let minimum: TimeInterval = 3600
    public static let maximum: TimeInterval = 7 * 24 * 3600
    public static let fallback: TimeInterval = 24 * 3600

    public static func clamp(_ seconds: TimeInterval) -> TimeInterval {
        guard seconds.isFinite else { return seconds.isNaN ? minimum : maximum }
        return min(maximum, max(minimum, seconds))
    }

    /// Seconds a failure is served from the cache.
    public static func failure(_ error: FetchError) -> TimeInterval {
        switch error.reason {
        case .dns?, .connect?, .tls?, .network?, .blocked?: 60
        case .httpStatus? where (error.status ?? 0) >= 500: 120
        case .httpStatus?: 600
        default: 300
        }
    }

    /// Whether a failure is worth caching at all: only real failures, not a
    /// cache miss that `cacheOnly` reports or a URL that is not one.
    public static func caches(_ error: FetchError) -> Bool {
        // A rate limit is remembered per host (`HostBackoff`), for as long as the host asked.
        error.kind == .failed && error.reason != .notCached && error.reason != .rateLimited
    }
}
