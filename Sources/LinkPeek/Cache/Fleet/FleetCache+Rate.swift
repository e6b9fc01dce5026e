import FoundationEssentials
import Redis
import Synchronization

extension FleetCache {
    /// What the rate gate decided for one request to an origin.
    enum Admission: Sendable, Equatable {
        /// Go after waiting this many seconds (0: at once).
        case after(Double)
        /// The wait would outlast the request's time left.
        case tooLong
    }

    /// One request to `host`'s origin through the fleet-wide token bucket;
    /// when Redis is not answering, through this process's own bucket at the
    /// same rate (so a daemon alone is still as polite as the whole fleet).
    /// - Parameter longest: seconds the request can still wait.
    func admit(host: String, longest: Double) -> Admission {
        // Clamped (a NaN becomes 0): the product then fits an Int.
        let longest = longest.isNaN ? 0 : min(max(longest, 0), 3600)
        let limit = Int(longest * 1000)
        let reply = connections.with { connection throws(RedisError) in
            try connection.call(Self.eval(
                FleetScripts.take, keys: [Self.rateKey(host), Array(Self.throttledKey.utf8)],
                arguments: [String(originRate), String(originRate), String(limit), host].map { Array($0.utf8) }))
        }
        guard let reply, let milliseconds = reply.integer else { return localRate.admit(host: host, longest: longest) }
        // The script never asks for more than `limit`; a reply that does is not trusted past it.
        return milliseconds < 0 ? .tooLong : .after(Double(min(milliseconds, limit)) / 1000)
    }

    /// The host a rate applies to: `url`'s, lower-cased, without user or port.
    static func host(of url: String) -> String? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        var authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[...close]).lowercased()
        }
        let host = authority.prefix { $0 != ":" }
        return host.isEmpty ? nil : host.lowercased()
    }
}

/// The same token bucket as `FleetScripts.take`, in this process, for when
/// Redis is not answering.
final class LocalRateGate: Sendable {
    private let rate: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    private struct Bucket {
        var tokens: Double
        var at: ContinuousClock.Instant
    }

    init(rate: Int) { self.rate = Double(rate) }

    func admit(host: String, longest: Double) -> FleetCache.Admission {
        let now = ContinuousClock.now
        return buckets.withLock { buckets in
            if buckets.count > 10_000 { buckets.removeAll() }
            var bucket = buckets[host] ?? Bucket(tokens: rate, at: now)
            let elapsed = now - bucket.at
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            if seconds > 0 {
                bucket.tokens = min(rate, bucket.tokens + seconds * rate)
                bucket.at = now
            }
            var wait = 0.0
            if bucket.tokens < 1 {
                wait = (1 - bucket.tokens) / rate
                if wait > longest { return .tooLong }
            }
            bucket.tokens -= 1
            buckets[host] = bucket
            return .after(wait)
        }
    }
}
