import CacheABI
import FoundationEssentials
import GRDB
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The second cache level and the saved links: one SQLite database
/// (`cache.sqlite` in the cache directory) through GRDB, a `DatabasePool` in
/// WAL mode so that readers never wait for the writer, shared by every
/// linkpeek process that uses the directory.
///
/// It opens on first use, not when made, so that a daemon's start-up and
/// idle memory do not pay for SQLite. Whatever goes wrong with the file is
/// a logged fallback, never a crash or a failed request: a file that is not
/// a readable database of a schema this build knows is moved aside
/// (`cache.sqlite.corrupt-<UTC time>`) and a new one made; a directory that
/// cannot be written, a read-only or full disk leaves the cache in memory
/// (an in-memory SQLite database, so saved links still work for this
/// process). Each such event is said once on stderr.
///
/// Every call blocks: reads go through the pool's reader connections,
/// writes through its one writer connection. linkpeek calls writes from a
/// queue of its own, never from a thread that answers requests.
public final class SQLiteStore: Sendable {
    /// The directory, or nil for a store that lives in memory only (`--no-cache`).
    public let directory: String?
    /// Bytes the database may take before the least recently used entries go.
    public let sizeLimit: Int
    let report: @Sendable (String) -> Void
    let state = Mutex(State())
    private let opening = Mutex(())

    struct State {
        var writer: (any DatabaseWriter)?
        /// True once the file is given up on: the store is in memory from then on.
        var inMemory = false
        /// True after a write failed for lack of space or permission: no more writes.
        var writesDisabled = false
        /// Keys read since the last write, with when: flushed into `lastUsed` by the next write.
        var touched: [String: Double] = [:]
        var writesSincePruneCheck = 0
        var pruning = false
        var said: Set<String> = []
    }

    public static let defaultSizeLimit = 256 * 1024 * 1024

    /// - Parameter report: receives each problem once, as a sentence (default: stderr).
    public init(
        directory: String?, sizeLimit: Int = SQLiteStore.defaultSizeLimit,
        report: @escaping @Sendable (String) -> Void = SQLiteStore.writeToStandardError
    ) {
        self.directory = directory
        self.sizeLimit = max(1024 * 1024, sizeLimit)
        self.report = report
    }

    /// The database file's path, when the store has one.
    public var path: String? { directory.map { $0 + "/" + Self.fileName } }

    static let fileName = "cache.sqlite"

    public static let writeToStandardError: @Sendable (String) -> Void = { message in
        let line = "linkpeek [warning] cache: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { Glibc.write(2, $0.baseAddress, $0.count - 1) }
    }

    /// Says `message` once per store (`topic` groups messages that repeat).
    func say(_ message: String, topic: String) {
        let first = state.withLock { $0.said.insert(topic).inserted }
        if first { report(message) }
    }

    /// The database, opened (or made) on first use.
    func writer() -> any DatabaseWriter {
        if let writer = state.withLock({ $0.writer }) { return writer }
        // One opener at a time; `state` stays free meanwhile, since opening reports through it.
        return opening.withLock { _ in
            let (current, inMemory) = state.withLock { ($0.writer, $0.inMemory) }
            if let current { return current }
            let opened = open(inMemory: inMemory)
            state.withLock { state in
                state.writer = opened.writer
                state.inMemory = opened.inMemory
            }
            return opened.writer
        }
    }

    /// Whether the store fell back to memory (or was made so).
    public var isInMemory: Bool {
        _ = writer()
        return state.withLock { $0.inMemory }
    }
}
