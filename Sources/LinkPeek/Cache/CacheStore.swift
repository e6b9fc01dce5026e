import Dispatch
import FoundationEssentials
import Logging
import SQLite
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The second cache level and the saved links: one SQLite database
/// (`cache.sqlite` in the cache directory) through SQLite's C API (the
/// `SQLite` target: prepared statements cached per connection, a
/// `DatabasePool` in WAL mode with one writer and a few readers, so that
/// readers never wait for the writer), shared by every linkpeek process
/// that uses the directory (a 10 s busy timeout for the others' writes).
///
/// It opens on first use, not when made. Whatever goes wrong is a logged
/// fallback, never a crash or a failed request: a file that is not a
/// readable database of a schema this build knows is moved aside
/// (`cache.sqlite.corrupt-<UTC time>`) and a new one made; a directory that
/// cannot be written, a read-only or full disk leaves the cache in memory
/// (an in-memory database, so saved links still work for this process).
/// Each such event is logged once, at `warning`.
///
/// Reads block the caller briefly (a WAL read never waits for a writer);
/// writes are `async` and run on one serial queue per store, never on the
/// caller's thread.
public final class CacheStore: Sendable {
    /// The directory, or nil for a store that lives in memory only (`--no-cache`).
    public let directory: String?
    /// Bytes the database may take before the least recently used entries go.
    public let sizeLimit: Int
    /// Whether `put`s made in a burst of loads answer before they are written (`put`).
    public let writesBehind: Bool
    /// How long and how much a written-behind `put` may wait.
    let writeBehindLimits: WriteBehindLimits
    /// Where problems (once each, at `warning`) and dropped entries (at `debug`) are logged.
    let logger: Logger
    let state = Mutex(State())
    private let opening = Mutex(())
    let writes = DispatchQueue(label: "linkpeek.cache.writes")

    struct State {
        var pool: DatabasePool?
        /// True once the file is given up on: the store is in memory from then on.
        var inMemory = false
        /// True when not even an in-memory database could be made: only the memory level works.
        var unavailable = false
        /// True after a write failed for lack of space or permission: no more writes.
        var writesDisabled = false
        /// Keys read since the last write, with when: flushed into `lastUsed` by the next write.
        var touched: [String: Double] = [:]
        /// `put`s written behind (see `put`), oldest first; by key, the newest's place.
        var queuedPuts: [PendingPut] = []
        var queuedPlaces: [String: Int] = [:]
        /// Blobs written behind (`storeBlobBehind`), by key.
        var queuedBlobs: [String: PendingBlob] = [:]
        var queuedBytes = 0
        /// Whether a timer will write the queue (within `writeBehindLimits.delay`).
        var flushTimerSet = false
        /// Which queue the next `put` joins, and the last few whose write failed (`put`'s answer).
        var queueGeneration = 0
        var failedGenerations: [Int] = []
        /// Loads running in this process (`beginLoad`), a running batch (`beginBatch`) counted as one.
        var loads = 0
        var writesSincePruneCheck = 0
        var pruning = false
        var said: Set<String> = []
    }

    public static let defaultSizeLimit = 256 * 1024 * 1024
    public static let fileName = "cache.sqlite"

    public convenience init(
        directory: String?, sizeLimit: Int = CacheStore.defaultSizeLimit, writesBehind: Bool = false,
        logger: Logger = Logger(label: "linkpeek.cache")
    ) {
        self.init(directory: directory, sizeLimit: sizeLimit, writesBehind: writesBehind, limits: .init(), logger: logger)
    }

    /// The same with other bounds for written-behind `put`s (tests).
    init(directory: String?, sizeLimit: Int, writesBehind: Bool, limits: WriteBehindLimits, logger: Logger) {
        self.directory = directory
        self.sizeLimit = max(1024 * 1024, sizeLimit)
        self.writesBehind = writesBehind
        writeBehindLimits = limits
        self.logger = logger
    }

    /// The database file's path, when the store has one.
    public var path: String? { directory.map { $0 + "/" + Self.fileName } }

    /// Says `message` once per store (`topic` groups messages that repeat).
    func say(_ message: String, topic: String) {
        let first = state.withLock { $0.said.insert(topic).inserted }
        if first { logger.warning("\(message)") }
    }

    /// The database, opened (or made) on first use; nil when there is none at all.
    func database() -> DatabasePool? {
        let (current, unavailable) = state.withLock { ($0.pool, $0.unavailable) }
        if let current { return current }
        if unavailable { return nil }
        // One opener at a time; `state` stays free meanwhile, since opening reports through it.
        return opening.withLock { _ in
            let (current, inMemory) = state.withLock { ($0.pool, $0.inMemory) }
            if let current { return current }
            let opened = open(inMemory: inMemory)
            state.withLock { state in
                state.pool = opened?.pool
                state.inMemory = opened?.inMemory ?? true
                state.unavailable = opened == nil
            }
            return opened?.pool
        }
    }

    /// Whether the store fell back to memory (or was made so).
    public var isInMemory: Bool {
        _ = database()
        return state.withLock { $0.inMemory }
    }

    /// Runs `work` on the store's write queue.
    func onWriteQueue<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            writes.async { continuation.resume(returning: work()) }
        }
    }
}

extension CacheStore.State {
    var queuedRows: Int { queuedPuts.count }

    /// Queues `put`, which answers for its key from now on (its aliases
    /// only once written: in the database an entry under the alias's own
    /// key comes first, which the queue cannot know); the queue's
    /// generation (see `takeWrites`).
    mutating func queue(_ put: CacheStore.PendingPut) -> Int {
        queuedPlaces[put.row.key] = queuedPuts.count
        queuedBytes += put.row.body.count
        queuedPuts.append(put)
        return queueGeneration
    }

    /// Queues a blob write; the newest for a key wins.
    mutating func queue(_ blob: CacheStore.PendingBlob) {
        queuedBytes += blob.bytes.count - (queuedBlobs[blob.key]?.bytes.count ?? 0)
        queuedBlobs[blob.key] = blob
    }

    var hasQueuedWrites: Bool { !queuedPuts.isEmpty || !queuedBlobs.isEmpty }

    /// The queued row stored under `key`.
    func queuedEntry(_ key: String) -> StoredEntry? {
        queuedPlaces[key].map { queuedPuts[$0].row }
    }

    /// What the next write transaction writes first: the used times, the queued rows.
    /// A new queue starts (the next generation).
    mutating func takeWrites() -> (
        touched: [String: Double], puts: [CacheStore.PendingPut], blobs: [CacheStore.PendingBlob], generation: Int
    ) {
        defer {
            touched = [:]
            queuedPuts = []
            queuedPlaces = [:]
            queuedBlobs = [:]
            queuedBytes = 0
            flushTimerSet = false
            queueGeneration += 1
        }
        return (touched, queuedPuts, Array(queuedBlobs.values), queueGeneration)
    }

    /// Notes that the queue of `generation` was not written.
    mutating func failed(_ generation: Int) {
        failedGenerations.append(generation)
        if failedGenerations.count > 16 { failedGenerations.removeFirst() }
    }
}
