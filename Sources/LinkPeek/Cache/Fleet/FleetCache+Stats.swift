import FoundationEssentials
import Redis

/// What `linkpeek fleet stats` shows: the whole fleet's use of the shared level.
public struct FleetStats: Sendable, Codable, Equatable {
    /// The Redis server, without its password.
    public var redis: String
    /// Lookups of the fleet level (by every daemon) that found an entry, and that did not.
    public var hits: Int
    public var misses: Int
    /// Fetches running now, one lock each.
    public var locksHeld: Int
    /// Hosts whose requests had to wait for the rate in the last `throttledWindow` seconds.
    public var hostsThrottled: [String]
    public var throttledWindow: Int
    /// The rate per host this process uses (each daemon has its own `--fleet-origin-rate`).
    public var originRate: Int
}

extension FleetCache {
    /// Reads the fleet's counters, or the reason Redis did not answer them.
    /// Takes longer than a request's calls (it scans the lock keys): 2 s per call.
    public func stats() -> Result<FleetStats, RedisError> {
        do throws(RedisError) {
            let connection = try RedisConnection(endpoint: connections.endpoint, timeout: 2)
            let counters = try connection.call(["HMGET", Self.statsKey, "hits", "misses"].map { Array($0.utf8) })
            let number = { (reply: RedisReply?) in reply?.bytes.flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0 }
            var locks = 0
            var cursor = "0"
            repeat {
                let reply = try connection.call(
                    ["SCAN", cursor, "MATCH", Self.namespace + "lock:*", "COUNT", "1000"].map { Array($0.utf8) })
                guard let parts = reply.array, parts.count == 2, let next = parts[0].bytes, let keys = parts[1].array else {
                    throw RedisError(.protocolError, "SCAN gave an unexpected reply")
                }
                cursor = String(decoding: next, as: UTF8.self)
                locks += keys.count
            } while cursor != "0"
            let time = try connection.call([Array("TIME".utf8)])
            // Seconds since 1970, checked so that the milliseconds below fit.
            guard let seconds = time.array?.first?.bytes.flatMap({ Int(String(decoding: $0, as: UTF8.self)) }),
                (Self.throttledWindow...1_000_000_000_000).contains(seconds)
            else {
                throw RedisError(.protocolError, "TIME gave an unexpected reply")
            }
            let since = String((seconds - Self.throttledWindow) * 1000)
            let hosts = try connection.call(["ZRANGEBYSCORE", Self.throttledKey, since, "+inf"].map { Array($0.utf8) })
            return .success(FleetStats(
                redis: connections.endpoint.description, hits: number(counters.array?.first),
                misses: number(counters.array?.dropFirst().first), locksHeld: locks,
                hostsThrottled: (hosts.array ?? []).compactMap { $0.bytes.map { String(decoding: $0, as: UTF8.self) } },
                throttledWindow: Self.throttledWindow, originRate: originRate))
        } catch {
            return .failure(error)
        }
    }

    static let throttledWindow = 60
}
