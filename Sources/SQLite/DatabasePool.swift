import Synchronization

/// One database file in WAL mode as several threads and processes share it:
/// one writer connection and a few reader connections (readers never wait
/// for the writer, and the writer waits for other processes' writers up to
/// the busy timeout) — "concurrent reads, barrier writes". An in-memory
/// database has only the writer, which then serves reads too.
///
/// Connections are opened on first use and never leave their lock: a call
/// runs its closure while it holds one. When every reader is taken, a read
/// waits for one (the pool is small: the machine's cores are few).
public final class DatabasePool: Sendable {
    public let path: String?
    private let writer: Mutex<Connection?>
    private let readers: [Slot]
    private let prepareReader: @Sendable (Connection) throws(SQLiteError) -> Void
    private let nextReader = Atomic<Int>(0)

    /// A pool over `path` whose writer is `writer` (already opened and set
    /// up by the caller: pragmas, WAL, schema); readers are opened read-only
    /// when first needed and given to `prepareReader` once.
    public init(
        path: String, writer: consuming sending Connection, readerCount: Int = 4,
        prepareReader: @escaping @Sendable (Connection) throws(SQLiteError) -> Void = { _ throws(SQLiteError) in }
    ) {
        self.path = path
        self.writer = Mutex(writer)
        readers = (0..<max(1, readerCount)).map { _ in Slot() }
        self.prepareReader = prepareReader
    }

    /// A reader connection, opened when first needed (a `Mutex` cannot sit in an array).
    private final class Slot: Sendable {
        let connection = Mutex<Connection?>(nil)
    }

    deinit {
        // Readers first: the writer, closing last, can checkpoint and remove the WAL.
        close()
    }

    /// A pool over a private in-memory database (`connection` is `.memory`).
    public init(memory connection: consuming sending Connection) {
        path = nil
        writer = Mutex(connection)
        readers = []
        prepareReader = { _ throws(SQLiteError) in }
    }

    /// Runs `body` on the writer connection (one caller at a time in this
    /// process; other processes' writers are waited for by the busy timeout).
    public func write<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withLock { connection -> T in
            guard let connection else { throw SQLiteError(code: SQLiteCode.misuse, message: "the pool is closed") }
            return try body(connection)
        }
    }

    /// Runs `body` on a reader connection; with `isolated`, inside one
    /// transaction so that its statements see one snapshot.
    public func read<T: Sendable>(isolated: Bool, _ body: (Connection) throws -> T) throws -> T {
        guard !readers.isEmpty else {
            return try write { connection in
                isolated ? try connection.transaction(immediate: false) { try body(connection) } : try body(connection)
            }
        }
        // The first free reader, in a fixed order: the first ones stay busy and
        // so keep their page caches warm (a reader reads again what a commit
        // changed). When all are taken, wait for the one this call was dealt.
        for slot in readers {
            if let result = try slot.connection.withLockIfAvailable({ connection in
                try run(on: &connection, isolated: isolated, body)
            }) {
                return result
            }
        }
        let dealt = nextReader.add(1, ordering: .relaxed).newValue
        return try readers[dealt % readers.count].connection.withLock { connection in
            try run(on: &connection, isolated: isolated, body)
        }
    }

    private func run<T: Sendable>(on slot: inout Connection?, isolated: Bool, _ body: (Connection) throws -> T) throws -> T {
        let connection: Connection
        if let open = slot {
            connection = open
        } else {
            guard let path else { throw SQLiteError(code: SQLiteCode.misuse, message: "no file to read") }
            connection = try Connection(path: path, mode: .readOnly)
            try prepareReader(connection)
            slot = connection
        }
        return isolated ? try connection.transaction(immediate: false) { try body(connection) } : try body(connection)
    }

    /// Closes every connection now (the last to close checkpoints the WAL into
    /// the file and removes it); later calls fail. Waits for calls in progress.
    public func close() {
        for reader in readers { reader.connection.withLock { $0 = nil } }
        writer.withLock { $0 = nil }
    }
}
