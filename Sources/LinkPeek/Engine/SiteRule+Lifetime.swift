import FoundationEssentials
import Options

extension SiteRule {
    /// A preview's seconds fresh within the rule's `minTTL` and `maxTTL`
    /// (which may go beyond `CacheLifetime`'s bounds either way).
    func previewLifetime(_ seconds: TimeInterval) -> TimeInterval {
        var seconds = seconds
        if let minTTL { seconds = max(minTTL, seconds) }
        if let maxTTL { seconds = min(maxTTL, seconds) }
        return seconds
    }

    /// The rule's `failureTTL` for `error`'s kind, if it sets one. A rate
    /// limit has none: it is held for its `Retry-After` only (`HostBackoff`).
    func failureLifetime(_ error: FetchError) -> TimeInterval? {
        FailureKind(error).flatMap { failureTTL[$0] }
    }
}

extension FailureKind {
    /// The kind of failure `error` is for `failureTTL`; nil for one it does not name.
    init?(_ error: FetchError) {
        if error.kind == .timedOut {
            self = .timedOut
            return
        }
        guard error.kind == .failed else { return nil }
        switch error.reason {
        case .httpStatus? where error.status == 404 || error.status == 410: self = .notFound
        case .httpStatus? where (error.status ?? 0) >= 500: self = .serverError
        case .blocked?, .blockedAddress?: self = .blocked
        case .dns?: self = .dns
        default: return nil
        }
    }
}
