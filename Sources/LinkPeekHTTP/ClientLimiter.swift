import Synchronization

/// The per-client limit: a token bucket per client (its bearer token, else
/// its address) of `rate` requests per second with a burst of `rate`. A
/// client past it is answered 429 with `Retry-After`. The table is bounded:
/// at `capacity` clients, buckets that have refilled are dropped first (a
/// full bucket is the same as none), then the oldest.
final class ClientLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private struct Table {
        var rate: Double
        var buckets: [ClientID: Bucket] = [:]
    }

    private let capacity: Int
    private let table: Mutex<Table>

    init(rate: Int, capacity: Int = 10_000) {
        table = Mutex(Table(rate: Double(max(1, rate))))
        self.capacity = capacity
    }

    /// A new rate (`SIGHUP`), from each client's next request on.
    func setRate(_ rate: Int) {
        table.withLock { $0.rate = Double(max(1, rate)) }
    }

    /// nil when `client` may go on now (and a token is spent), else the
    /// whole seconds until it may.
    func admit(_ client: ClientID, now: ContinuousClock.Instant = .now) -> Int? {
        table.withLock { table in
            let rate = table.rate
            // The client's bucket found once (hashed once): a client seen before is updated in place.
            guard let index = table.buckets.index(forKey: client) else {
                // A new client's bucket is full: it goes on.
                if table.buckets.count >= capacity { Self.prune(&table.buckets, rate: rate, now: now) }
                table.buckets[client] = Bucket(tokens: rate - 1, updated: now)
                return nil
            }
            return Self.take(&table.buckets.values[index], rate: rate, now: now)
        }
    }

    /// A token from `bucket` refilled to `now`: nil when there was one, else the whole seconds until there is.
    private static func take(_ bucket: inout Bucket, rate: Double, now: ContinuousClock.Instant) -> Int? {
        let elapsed = now - bucket.updated
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        bucket.tokens = min(rate, bucket.tokens + max(0, seconds) * rate)
        bucket.updated = now
        if bucket.tokens >= 1 {
            bucket.tokens -= 1
            return nil
        }
        // Safe: (1 - tokens) / rate is in (0, 1], so its ceiling is 1.
        return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
    }

    private static func prune(_ buckets: inout [ClientID: Bucket], rate: Double, now: ContinuousClock.Instant) {
        let full = buckets.filter { now - $0.value.updated >= .seconds(1) }.map(\.key)
        for key in full { buckets[key] = nil }
        if buckets.count >= 10_000, let oldest = buckets.min(by: { $0.value.updated < $1.value.updated })?.key {
            buckets[oldest] = nil
        }
    }
}
