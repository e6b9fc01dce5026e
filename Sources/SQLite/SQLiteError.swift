internal import CSQLite

/// A failed SQLite call: its extended result code and the connection's
/// message at the time (`sqlite3_errmsg`), or the library's text for the code.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CORRUPT_INDEX`, …).
    public let code: Int32
    public let message: String

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// The primary result code (`SQLITE_CORRUPT`, `SQLITE_BUSY`, …).
    public var primaryCode: Int32 { code & 0xff }

    /// The file is not a database, or not a whole one: move it aside.
    public var isCorruption: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    /// The directory or disk cannot take writes (read-only, full, no permission, I/O error).
    public var isUnwritable: Bool {
        [SQLITE_READONLY, SQLITE_FULL, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PERM].contains(primaryCode)
    }

    /// Another connection held a lock for longer than the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    public var description: String { "\(message) (SQLite code \(code))" }

    /// The error for `code` on `handle` (nil: the library's text for the code).
    static func make(_ code: Int32, _ handle: OpaquePointer?) -> SQLiteError {
        let text = handle.flatMap { sqlite3_errmsg($0) } ?? sqlite3_errstr(code)
        return SQLiteError(code: code, message: text.map { String(cString: $0) } ?? "unknown error")
    }
}

/// The library's result codes, for callers that name one without importing C.
public enum SQLiteCode {
    public static let corrupt = SQLITE_CORRUPT
    public static let notADatabase = SQLITE_NOTADB
    public static let busy = SQLITE_BUSY
    public static let misuse = SQLITE_MISUSE
}
