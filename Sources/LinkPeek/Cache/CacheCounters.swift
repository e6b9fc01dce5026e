import Synchronization

/// What the engine did since it started, for a front that reports it (the
/// HTTP service's `/metrics`): answers by cache level, requests to origins
/// and the bytes they read, fetches held back by a host's `Retry-After`.
/// Counted where each happens, with relaxed atomics (a few nanoseconds).
public final class CacheCounters: Sendable {
    /// Which level answered, and a `304` that renewed a stale entry.
    public enum Level: Int, Sendable, CaseIterable {
        case memory, disk, fleet, revalidated

        public var name: String {
            switch self {
            case .memory: "memory"
            case .disk: "disk"
            case .fleet: "fleet"
            case .revalidated: "revalidated"
            }
        }
    }

    private let memory = Atomic<Int>(0), disk = Atomic<Int>(0), fleet = Atomic<Int>(0), renewed = Atomic<Int>(0)
    private let memoryReads = Atomic<Int>(0), diskReads = Atomic<Int>(0), fleetReads = Atomic<Int>(0)
    private let origin = Atomic<Int>(0)
    private let bytes = Atomic<Int>(0)
    private let holds = Atomic<Int>(0)
    private let joins = Atomic<Int>(0)

    public init() {}

    /// A plain snapshot; each number only grows.
    public struct Snapshot: Sendable, Equatable {
        public var hits: [Level: Int]
        /// How often each level was asked (`memory`, `disk`, `fleet`), hit or not.
        public var lookups: [Level: Int]
        public var originRequests: Int
        public var bytesRead: Int
        public var rateLimitHolds: Int
        /// Fetches that joined one another caller had started for the same
        /// page, and made no origin request of their own.
        public var joinedFetches: Int
    }

    public var snapshot: Snapshot {
        var hits: [Level: Int] = [:]
        hits[.memory] = memory.load(ordering: .relaxed)
        hits[.disk] = disk.load(ordering: .relaxed)
        hits[.fleet] = fleet.load(ordering: .relaxed)
        hits[.revalidated] = renewed.load(ordering: .relaxed)
        let lookups: [Level: Int] = [
            .memory: memoryReads.load(ordering: .relaxed), .disk: diskReads.load(ordering: .relaxed),
            .fleet: fleetReads.load(ordering: .relaxed),
        ]
        return Snapshot(
            hits: hits, lookups: lookups, originRequests: origin.load(ordering: .relaxed), bytesRead: bytes.load(ordering: .relaxed),
            rateLimitHolds: holds.load(ordering: .relaxed), joinedFetches: joins.load(ordering: .relaxed))
    }

    /// `level` answered; the calling task's `CacheTrace`, if it has one, is told too.
    func hit(_ level: Level) {
        switch level {
        case .memory: memory.add(1, ordering: .relaxed)
        case .disk: disk.add(1, ordering: .relaxed)
        case .fleet: fleet.add(1, ordering: .relaxed)
        case .revalidated: renewed.add(1, ordering: .relaxed)
        }
        CacheTrace.current?.note(level)
    }

    /// `level` was asked for an entry (a request asks each level once at most).
    func looked(_ level: Level) {
        switch level {
        case .memory: memoryReads.add(1, ordering: .relaxed)
        case .disk: diskReads.add(1, ordering: .relaxed)
        case .fleet: fleetReads.add(1, ordering: .relaxed)
        case .revalidated: break
        }
    }

    /// One request sent to an origin (a page, a redirect chain, an icon, an image).
    func originRequest() { origin.add(1, ordering: .relaxed) }

    func read(_ count: Int) { bytes.add(max(0, count), ordering: .relaxed) }

    /// A fetch refused at once because its host is held (`HostBackoff`).
    func held() { holds.add(1, ordering: .relaxed) }

    /// A fetch joined the flight another caller had started (`Coalescer`).
    func joinedFetch() { joins.add(1, ordering: .relaxed) }
}

/// Which cache level answered one caller's fetch: a caller sets one as a
/// task local around `fetch` (the HTTP front's `X-Cache`), and the engine
/// notes the last level it used on this task. Nil (not set) costs a
/// task-local lookup per hit.
public final class CacheTrace: Sendable {
    @TaskLocal public static var current: CacheTrace?

    private let noted = Atomic<Int>(-1)
    private let joinedFlight = Atomic<Bool>(false)

    public init() {}

    /// The last level noted, nil when none answered (an origin fetch).
    public var level: CacheCounters.Level? { CacheCounters.Level(rawValue: noted.load(ordering: .relaxed)) }

    /// Whether the fetch joined one that another caller had started (`Coalescer`):
    /// its answer came from that caller's work, without a request of its own.
    public var joined: Bool { joinedFlight.load(ordering: .relaxed) }

    func note(_ level: CacheCounters.Level) { noted.store(level.rawValue, ordering: .relaxed) }

    func noteJoined() { joinedFlight.store(true, ordering: .relaxed) }
}
