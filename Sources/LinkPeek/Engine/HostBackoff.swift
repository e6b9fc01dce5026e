import FoundationEssentials
import Synchronization

/// Hosts that asked to be left alone (a 429 or 503 with `Retry-After`), and
/// until when. While a host is held, the engine fails new fetches to it at
/// once with `rateLimited` instead of asking again (`cachePolicy: "reload"`
/// still goes).
///
/// The state is this process's, in memory. Its API is the two calls below on
/// plain values (a host key, seconds), so that a shared level (fleet mode:
/// Redis, `SET backoff:<host> 1 EX <seconds>` and `TTL`) can stand behind
/// the same calls without the engine changing.
public final class HostBackoff: Sendable {
    private let deadlines = Mutex<[String: ContinuousClock.Instant]>([:])
    private let clock = ContinuousClock()

    /// Hosts remembered at most; past it, expired ones are dropped first,
    /// then the nearest deadlines (a flood of hosts cannot grow the table).
    static let capacity = 4096

    public init() {}

    /// Holds `host` for `seconds` from now (at most `RetryAfter.maximumSeconds`).
    /// A later deadline never shortens an earlier, longer one.
    public func hold(_ host: String, seconds: Int) {
        guard seconds > 0 else { return }
        let until = clock.now.advanced(by: .seconds(min(seconds, RetryAfter.maximumSeconds)))
        deadlines.withLock { table in
            if let current = table[host], current >= until { return }
            if table[host] == nil, table.count >= Self.capacity { Self.evict(from: &table, now: clock.now) }
            table[host] = until
        }
    }

    /// Whole seconds (rounded up) `host` is still held for, or nil when it is free.
    public func remaining(_ host: String) -> Int? {
        let now = clock.now
        return deadlines.withLock { table in
            guard let until = table[host] else { return nil }
            guard until > now else {
                table[host] = nil
                return nil
            }
            let left = now.duration(to: until).components
            return Int(left.seconds) + (left.attoseconds > 0 ? 1 : 0)
        }
    }

    /// The key of `url`'s host: the lowercased name and the port (the
    /// scheme's default when none is written), so that two servers on one
    /// machine are two hosts. Nil for a URL without a host.
    public static func key(for url: String) -> String? {
        guard let parsed = URL(string: url), let host = parsed.host?.lowercased(), !host.isEmpty else { return nil }
        let port = parsed.port ?? (parsed.scheme?.lowercased() == "http" ? 80 : 443)
        return "\(host):\(port)"
    }

    private static func evict(from table: inout [String: ContinuousClock.Instant], now: ContinuousClock.Instant) {
        table = table.filter { $0.value > now }
        guard table.count >= capacity else { return }
        let nearest = table.sorted { $0.value < $1.value }.prefix(table.count - capacity + 1)
        for (host, _) in nearest { table[host] = nil }
    }
}
