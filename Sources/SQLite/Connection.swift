internal import CSQLite

/// One SQLite connection with its prepared statements, cached by SQL text
/// (the hot lookups are prepared once per connection, not per call).
///
/// - Important: not thread-safe. A `DatabasePool` keeps each connection
///   behind a lock of its own and lends it to one caller at a time, only
///   for the length of that caller's closure; that lock is what makes the
///   `Sendable` conformance true.
public final class Connection: @unchecked Sendable {
    private let handle: OpaquePointer
    private var statements: [String: Statement] = [:]

    /// How a connection opens its file.
    public enum Mode: Sendable {
        /// Read and write, creating the file when it is missing.
        case readWrite
        /// Reads only (WAL readers).
        case readOnly
        /// A private database in memory.
        case memory
    }

    /// Opens `path` (ignored for `.memory`); `busyTimeout` bounds how long a
    /// call waits for another process's lock before it fails with `SQLITE_BUSY`.
    public init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32 = 10_000) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_PRIVATECACHE
        var name = path
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .memory:
            flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY
            name = ":memory:"
        }
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(name, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError.make(code, opened)
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
    }

    deinit {
        for statement in statements.values { statement.finalize() }
        // The last connection to a WAL database checkpoints and removes the WAL as it closes.
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, which may hold several statements and returns no rows
    /// (schema changes, pragmas that set, `BEGIN`/`COMMIT`).
    public func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError.make(code, handle) }
    }

    /// The cached prepared statement for `sql` (one statement).
    private func prepared(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = statements[sql] { return statement }
        var prepared: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        guard code == SQLITE_OK, let prepared else {
            sqlite3_finalize(prepared)
            throw SQLiteError.make(code, handle)
        }
        let statement = Statement(prepared, connection: handle)
        statements[sql] = statement
        return statement
    }

    /// Runs one statement with `values` bound, for its effect.
    public func run(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) {
        let statement = try prepared(sql)
        defer { statement.finish() }
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Calls `body` for each row of one statement, until it returns false.
    public func forEachRow(
        _ sql: String, _ values: [SQLValue] = [], _ body: (Row) throws(SQLiteError) -> Bool
    ) throws(SQLiteError) {
        let statement = try prepared(sql)
        defer { statement.finish() }
        try statement.bind(values)
        while try statement.step() {
            guard try body(Row(statement)) else { return }
        }
    }

    /// Each row of one statement, made into a `T`.
    public func rows<T>(_ sql: String, _ values: [SQLValue] = [], _ make: (Row) -> T) throws(SQLiteError) -> [T] {
        var found: [T] = []
        try forEachRow(sql, values) { row in
            found.append(make(row))
            return true
        }
        return found
    }

    /// The first row of one statement, made into a `T`; nil when there is none.
    public func firstRow<T>(_ sql: String, _ values: [SQLValue] = [], _ make: (Row) -> T) throws(SQLiteError) -> T? {
        var found: T?
        try forEachRow(sql, values) { row in
            found = make(row)
            return false
        }
        return found
    }

    /// The first column of the first row as an integer (`COUNT(*)`, a pragma); 0 when there is no row.
    public func integer(_ sql: String, _ values: [SQLValue] = []) throws(SQLiteError) -> Int {
        try firstRow(sql, values) { $0.int(0) } ?? 0
    }

    /// Rows changed by the last `INSERT`, `UPDATE` or `DELETE`.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// Runs `body` in a transaction: committed when it returns, rolled back
    /// when it throws. `immediate` takes the write lock at once (waiting up to
    /// the busy timeout), so that two processes never both start a change.
    public func transaction<T>(immediate: Bool, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
