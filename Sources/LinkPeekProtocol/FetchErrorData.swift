/// The `data` of an error response to `fetch`: the error family, and for
/// failures the reason (an open set) and the HTTP status when there is one.
public struct FetchErrorData: Codable, Sendable, Equatable {
    /// `cancelled`, `timedOut`, `failed`, `providerReused` or `unknown`.
    public var kind: String
    public var reason: String?
    public var status: Int?
    /// True when the failure was served from the failure cache.
    public var fromCache: Bool?
    /// True when a cached failure is past its lifetime (`getCached` only).
    public var stale: Bool?
    /// For `reason: "blocked"`: `challenge`, `consent` or `login`.
    public var wall: String?
    /// Seconds until the host may be asked again (`reason: "rateLimited"`).
    public var retryAfter: Int?

    public init(
        kind: String, reason: String? = nil, status: Int? = nil, fromCache: Bool? = nil, stale: Bool? = nil,
        wall: String? = nil, retryAfter: Int? = nil
    ) {
        self.retryAfter = retryAfter
        self.kind = kind
        self.reason = reason
        self.status = status
        self.fromCache = fromCache
        self.stale = stale
        self.wall = wall
    }
}
