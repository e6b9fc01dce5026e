import FoundationEssentials
import Logging
import Redis
import Synchronization

/// The fleet level: Redis as a cache shared by many daemons on
/// many hosts, behind each one's memory and SQLite levels, and the two
/// things that make a fleet polite — one origin fetch per URL (a lock per
/// key, the others waiting on pub/sub) and one request rate per host (a
/// token bucket in Redis).
///
/// Everything here is best effort. Each call is bounded (50 ms,
/// `FleetConnections`); when Redis is down, slow, flushed or restarted the
/// answers are "nothing shared" (`nil`, `.unavailable`), and the engine goes
/// on with its local levels as if there were no fleet. hiredis is loaded on
/// the first call, so a daemon without `--fleet` pays nothing.
///
/// Keys, all under `linkpeek:v1:` (the `v1` changes when the entry layout does):
/// `entry:<cache key>` (`FleetEntry`), `lock:<cache key>` (the fetcher's
/// owner token), `rate:<host>` (the bucket), `throttled` (hosts that had to
/// wait, by time), `stats` (hits and misses); the channel `done` carries the
/// keys whose fetch ended.
public final class FleetCache: Sendable {
    let connections: FleetConnections
    let waiters: FleetWaiters
    let localRate: LocalRateGate
    /// Requests per second per host, for the whole fleet; the burst is the same number.
    public let originRate: Int
    /// Where the fleet's decisions are said (an entry that does not decode).
    let logger: Logger
    /// This process's part of every lock owner token.
    private let ownerPrefix: String
    private let lockCounter = Atomic<UInt64>(0)

    static let namespace = "linkpeek:v1:"
    static let channel = namespace + "done"
    static let statsKey = namespace + "stats"
    static let throttledKey = namespace + "throttled"
    /// How long a lock lives without renewal: how soon another daemon takes
    /// over from a holder that vanished.
    static let lockLifetime = 10.0
    /// How often a holder renews its lock while its fetch runs.
    static let lockRenewal = 2.0
    /// How long past its freshness a preview stays in Redis, for revalidation with its validators.
    static let staleGrace = 7 * 24 * 3600.0

    public init(
        endpoint: RedisEndpoint, originRate: Int,
        report: @escaping @Sendable (String) -> Void = FleetCache.writeToStandardError,
        logger: Logger = Logger(label: "linkpeek.fleet")
    ) {
        self.logger = logger
        connections = FleetConnections(endpoint: endpoint, report: report)
        waiters = FleetWaiters(endpoint: endpoint, report: report)
        self.originRate = min(max(originRate, Settings.fleetOriginRates.lowerBound), Settings.fleetOriginRates.upperBound)
        localRate = LocalRateGate(rate: self.originRate)
        var random = SystemRandomNumberGenerator()
        ownerPrefix = "\(getpid()):\(String(random.next(), radix: 36))"
    }

    /// The cache for `settings.fleet`; nil without one (or with one that does not parse, refused at the edge).
    /// `logger`: where each problem with Redis is said, once, at `warning`.
    public convenience init?(settings: Settings, logger: Logger) {
        guard let url = settings.fleet, case .success(let endpoint) = RedisEndpoint.parse(url, field: "fleet") else {
            return nil
        }
        self.init(
            endpoint: endpoint, originRate: settings.fleetOriginRate, report: { logger.warning("fleet: \($0)") },
            logger: logger)
    }

    /// Each problem with Redis as one line on stderr.
    public static let writeToStandardError: @Sendable (String) -> Void = { message in
        let line = "linkpeek [warning] fleet: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    static func entryKey(_ key: String) -> [UInt8] { Array((namespace + "entry:" + key).utf8) }
    static func lockKey(_ key: String) -> [UInt8] { Array((namespace + "lock:" + key).utf8) }
    static func rateKey(_ host: String) -> [UInt8] { Array((namespace + "rate:" + host).utf8) }

    // MARK: Entries

    /// The shared entry for `key`, fresh or stale; nil when there is none,
    /// Redis is not answering, or it does not decode (said at `info`; the
    /// fetch that follows overwrites it).
    /// - Parameter counted: whether this lookup counts for `fleet stats`
    ///   (a hit or a miss); a fetch that holds the key's lock looks again
    ///   uncounted, for an entry another daemon shared meanwhile.
    func entry(for key: String, counted: Bool = true) -> CacheEntry? {
        let reply = connections.with { connection throws(RedisError) in
            if counted {
                try connection.call(Self.eval(
                    FleetScripts.read, keys: [Self.entryKey(key), Array(Self.statsKey.utf8)],
                    arguments: [[UInt8(ascii: "1")]]))
            } else {
                try connection.call([Array("GET".utf8), Self.entryKey(key)])
            }
        }
        guard let bytes = reply?.bytes else { return nil }
        do throws(StoredDamage) {
            return try FleetEntry.decode(bytes)
        } catch {
            // Not deleted here: another daemon may be writing the key now, and this one's fetch overwrites it.
            logger.info("fleet entry unreadable; ignored", metadata: ["key": "\(key)", "error": "\(error)"])
            return nil
        }
    }

    /// Shares `entry` (write-through after a fetch): kept as long as it is
    /// fresh, a preview a while longer for revalidation.
    func put(_ entry: CacheEntry, key: String, now: Date) {
        guard let bytes = FleetEntry.encode(entry) else { return }
        var lifetime = entry.expiresAt.timeIntervalSince(now)
        if case .metadata = entry.value { lifetime += Self.staleGrace }
        guard lifetime.isFinite, lifetime >= 0.001 else { return }
        let milliseconds = Int(min(lifetime, 365 * 24 * 3600) * 1000)
        _ = connections.with { connection throws(RedisError) in
            try connection.call([Array("SET".utf8), Self.entryKey(key), bytes, Array("PX".utf8), Array(String(milliseconds).utf8)])
        }
    }

    /// Forgets the shared entry for `key` (a `no-store` answer).
    func remove(_ key: String) {
        _ = connections.with { connection throws(RedisError) in
            try connection.call([Array("DEL".utf8), Self.entryKey(key)])
        }
    }

    // MARK: Locks

    /// A held lock: the key and this holder's owner token.
    struct Lock: Sendable, Equatable {
        let key: String
        let owner: [UInt8]
    }

    /// How long a request waits before asking again after one slow call.
    static let slowCallPause = 0.02

    enum Acquisition: Sendable, Equatable {
        /// This process fetches; renew and release `Lock`.
        case acquired(Lock)
        /// Another daemon is fetching the key.
        case heldElsewhere
        /// Redis is not answering: fetch without the fleet.
        case unavailable
    }

    /// A new owner token: this process, and a counter.
    func newOwner() -> [UInt8] {
        Array("\(ownerPrefix):\(lockCounter.wrappingAdd(1, ordering: .relaxed).oldValue)".utf8)
    }

    /// Whether Redis counts as up (a single slow call does not take it down).
    public var isUp: Bool { connections.isUp }

    /// Whether Redis answers a `PING` now (blocks at most one call's limit).
    /// While it is down and its backoff runs this is false at once; past
    /// the backoff the call reconnects (a readiness probe).
    public func ping() -> Bool {
        connections.with { connection throws(RedisError) in try connection.call([Array("PING".utf8)]) } != nil
    }

    /// `SET lock:<key> <owner> NX PX <lifetime>`.
    /// - Parameter uncertain: the last try with this owner got no reply (a
    ///   slow call), so the lock may already be this owner's: a refusal is
    ///   then checked against the holder's token.
    func acquire(_ key: String, owner: [UInt8], uncertain: Bool = false) -> Acquisition {
        let milliseconds = Array(String(Int(Self.lockLifetime * 1000)).utf8)
        let replies = connections.with { connection throws(RedisError) in
            var commands = [[Array("SET".utf8), Self.lockKey(key), owner, Array("NX".utf8), Array("PX".utf8), milliseconds]]
            if uncertain { commands.append([Array("GET".utf8), Self.lockKey(key)]) }
            return try connection.pipeline(commands)
        }
        guard let replies else { return .unavailable }
        switch replies[0] {
        case .status("OK"): return .acquired(Lock(key: key, owner: owner))
        case .null where uncertain && replies.last?.bytes == owner: return .acquired(Lock(key: key, owner: owner))
        case .null: return .heldElsewhere
        default: return .unavailable
        }
    }

    /// Extends the lock while its fetch runs; false when it is no longer this holder's.
    func renew(_ lock: Lock) -> Bool {
        let reply = connections.with { connection throws(RedisError) in
            try connection.call(Self.eval(
                FleetScripts.renew, keys: [Self.lockKey(lock.key)],
                arguments: [lock.owner, Array(String(Int(Self.lockLifetime * 1000)).utf8)]))
        }
        // Redis not answering is not a lost lock: the next renewal may reach it.
        return reply.map { $0.integer == 1 } ?? true
    }

    /// Releases the lock (if still this holder's) and wakes the key's waiters.
    func release(_ lock: Lock) {
        _ = connections.with { connection throws(RedisError) in
            try connection.call(Self.eval(
                FleetScripts.release, keys: [Self.lockKey(lock.key)],
                arguments: [lock.owner, Array(Self.channel.utf8), Array(lock.key.utf8)]))
        }
    }

    static func eval(_ script: String, keys: [[UInt8]], arguments: [[UInt8]] = []) -> [[UInt8]] {
        [Array("EVAL".utf8), Array(script.utf8), Array(String(keys.count).utf8)] + keys + arguments
    }
}

#if canImport(Glibc)
import Glibc
#endif
