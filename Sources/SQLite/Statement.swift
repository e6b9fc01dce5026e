internal import CSQLite

/// A value bound to a statement's parameter.
public enum SQLValue: Sendable, Equatable {
    case integer(Int)
    case double(Double)
    case text(String)
    case blob([UInt8])
    case null
}

extension SQLValue {
    public static func bool(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }
    public static func text(_ value: String?) -> SQLValue { value.map(SQLValue.text) ?? .null }
    public static func blob(_ value: [UInt8]?) -> SQLValue { value.map(SQLValue.blob) ?? .null }
}

/// One prepared statement, owned by its `Connection` (which caches it by
/// its SQL and finalises it when closed). Not thread-safe: it is used by
/// whoever holds the connection.
public final class Statement {
    let handle: OpaquePointer
    private let connection: OpaquePointer

    init(_ handle: OpaquePointer, connection: OpaquePointer) {
        self.handle = handle
        self.connection = connection
    }

    func finalize() { sqlite3_finalize(handle) }

    /// Clears the last run and binds `values` to parameters 1, 2, …
    func bind(_ values: [SQLValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(truncatingIfNeeded: offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(handle, index, Int64(number))
            case .double(let number): code = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                // With its length: a NUL inside the text is kept, not an end.
                var text = text
                code = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { characters in
                        guard let start = characters.baseAddress else {
                            return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
                        }
                        return sqlite3_bind_text64(
                            handle, index, start, sqlite3_uint64(characters.count), csqlite_transient(),
                            UInt8(SQLITE_UTF8))
                    }
                }
            case .blob(let bytes):
                // A zero-length blob is bound as one (not NULL): an empty body is still a body.
                code = bytes.withUnsafeBytes { raw in
                    raw.baseAddress.map {
                        sqlite3_bind_blob64(handle, index, $0, sqlite3_uint64(raw.count), csqlite_transient())
                    } ?? sqlite3_bind_zeroblob(handle, index, 0)
                }
            case .null: code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw SQLiteError.make(code, connection) }
        }
    }

    /// Runs to the next row: true when there is one to read.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let error = SQLiteError.make(code, connection)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Lets go of the statement's read lock and its bound copies.
    func finish() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }
}

/// The current row of a statement being stepped; valid only inside the
/// closure it is given to. Columns count from 0; a column of another type
/// is converted as SQLite converts it (NULL reads as 0, "" or nil).
public struct Row {
    private let handle: OpaquePointer

    init(_ statement: Statement) {
        handle = statement.handle
    }

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    public func int(_ column: Int32) -> Int { Int(truncatingIfNeeded: sqlite3_column_int64(handle, column)) }
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }
    public func bool(_ column: Int32) -> Bool { sqlite3_column_int64(handle, column) != 0 }

    public func text(_ column: Int32) -> String {
        optionalText(column) ?? ""
    }

    public func optionalText(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// The column's bytes; nil only for NULL (an empty blob is `[]`).
    public func blob(_ column: Int32) -> [UInt8]? {
        if isNull(column) { return nil }
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
