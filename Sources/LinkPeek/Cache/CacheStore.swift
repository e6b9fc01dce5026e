import CacheABI
import Dispatch
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

public typealias CacheStats = CacheABI.CacheStats
public typealias SavedRecord = CacheABI.SavedRecord
public typealias DaemonUsage = CacheABI.DaemonUsage

/// The second cache level and the saved links: one SQLite database
/// (`cache.sqlite` in the cache directory) through GRDB, a `DatabasePool` in
/// WAL mode so that readers never wait for the writer, shared by every
/// linkpeek process that uses the directory. The database code lives in the
/// cache library (`LinkPeekCacheStore`, see `CacheLibrary`), loaded and
/// opened on first use, so that a daemon's start-up and idle memory do not
/// pay for SQLite.
///
/// Whatever goes wrong is a logged fallback, never a crash or a failed
/// request: a file that is not a readable database of a schema this build
/// knows is moved aside (`cache.sqlite.corrupt-<UTC time>`) and a new one
/// made; a directory that cannot be written, a read-only or full disk leaves
/// the cache in memory (an in-memory database, so saved links still work
/// for this process); a cache library that cannot be loaded leaves only the
/// memory level. Each such event is said once on stderr.
///
/// Reads block the caller briefly (a WAL read never waits for a writer);
/// writes are `async` and run on one serial queue per store, never on the
/// caller's thread.
public final class CacheStore: Sendable {
    /// The directory, or nil for a store that lives in memory only (`--no-cache`).
    public let directory: String?
    /// Bytes the database may take before the least recently used entries go.
    public let sizeLimit: Int
    private let reporter: Reporter
    private let opened = Mutex<Opened?>(nil)
    private let writes = DispatchQueue(label: "linkpeek.cache.writes")

    public static let defaultSizeLimit = 256 * 1024 * 1024
    public static let fileName = "cache.sqlite"

    /// - Parameter report: receives each problem once, as a sentence (default: stderr).
    public init(
        directory: String?, sizeLimit: Int = CacheStore.defaultSizeLimit,
        report: @escaping @Sendable (String) -> Void = CacheStore.writeToStandardError
    ) {
        self.directory = directory
        self.sizeLimit = max(1024 * 1024, sizeLimit)
        reporter = Reporter(report: report)
    }

    deinit {
        if case .store(let library, let handle)? = opened.withLock({ $0 }) {
            library.release(handle.pointer)
        }
    }

    /// The database file's path, when the store has one.
    public var path: String? { directory.map { $0 + "/" + Self.fileName } }

    public static let writeToStandardError: @Sendable (String) -> Void = { message in
        let line = "linkpeek [warning] cache: \(message)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    /// The report closure, at an address the library can hand back to the C callback.
    private final class Reporter: Sendable {
        let report: @Sendable (String) -> Void
        init(report: @escaping @Sendable (String) -> Void) { self.report = report }
    }

    /// A library handle; only its address crosses threads, and the library is thread-safe.
    private struct Handle: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    private enum Opened: Sendable {
        case store(CacheLibrary, Handle)
        /// No library: only the memory level works.
        case unavailable
    }

    private func open() -> Opened {
        opened.withLock { state in
            if let state { return state }
            let made = makeStore()
            state = made
            return made
        }
    }

    private func makeStore() -> Opened {
        switch CacheLibrary.shared() {
        case .failure(let error):
            reporter.report("cannot load the cache library (\(error)); previews stay in memory and saved links are not kept.")
            return .unavailable
        case .success(let library):
            var config = ByteWriter()
            config.optional(directory) { $0.string($1) }
            config.int(sizeLimit)
            let context = Unmanaged.passUnretained(reporter).toOpaque()
            let callback: CacheLibrary.Report = { context, message in
                guard let context, let message else { return }
                Unmanaged<Reporter>.fromOpaque(context).takeUnretainedValue().report(String(cString: message))
            }
            let handle = config.bytes.withUnsafeBufferPointer { library.open($0.baseAddress, $0.count, callback, context) }
            guard let handle else { return .unavailable }
            return .store(library, Handle(pointer: handle))
        }
    }

    /// Runs `call` now, on this thread; the output to read, nil when it failed.
    func perform(_ call: CacheCall, _ input: ByteWriter = ByteWriter()) -> ByteReader? {
        guard case .store(let library, let handle) = open() else { return nil }
        var count = 0
        let output = input.bytes.withUnsafeBufferPointer {
            library.call(handle.pointer, call.rawValue, $0.baseAddress, $0.count, &count)
        }
        guard let output else { return nil }
        defer { library.free(output) }
        return ByteReader(output, count: count)
    }

    /// Runs `call` on the store's write queue.
    func performWriting(_ call: CacheCall, _ input: ByteWriter = ByteWriter()) async -> ByteReader? {
        await withCheckedContinuation { continuation in
            writes.async { continuation.resume(returning: self.perform(call, input)) }
        }
    }

    /// Whether the store fell back to memory (or was made so, or has no library).
    public var isInMemory: Bool {
        guard var reader = perform(.isInMemory) else { return true }
        return reader.bool() ?? true
    }
}

