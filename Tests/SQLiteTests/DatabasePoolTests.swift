import Foundation
import Testing

@testable import SQLite

/// The thin layer over SQLite's C API on real files: values round-trip as
/// bound, errors are typed, readers see committed writes while the writer
/// is busy, and a file that is not a database says so as corruption.
final class DatabasePoolTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "linkpeek-sqlite-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func makePool() throws -> DatabasePool {
        let writer = try Connection(path: directory + "/t.sqlite", mode: .readWrite)
        try writer.execute("PRAGMA journal_mode = WAL; CREATE TABLE IF NOT EXISTS t (k TEXT PRIMARY KEY NOT NULL, v BLOB, n INTEGER, d DOUBLE)")
        return DatabasePool(path: directory + "/t.sqlite", writer: writer, readerCount: 2)
    }

    @Test func valuesRoundTripAsBound() throws {
        let pool = try makePool()
        try pool.write { db in
            try db.run("INSERT INTO t VALUES (?, ?, ?, ?)", [.text("empty"), .blob([]), .integer(Int.max), .double(-0.5)])
            try db.run("INSERT INTO t VALUES (?, ?, ?, ?)", [.text("null"), .null, .integer(Int.min), .double(1e300)])
            try db.run("INSERT INTO t VALUES (?, ?, ?, ?)", [.text("é\u{0}x"), .blob([0, 255, 0]), .integer(0), .double(0)])
        }
        let rows = try pool.read(isolated: true) { db in
            try db.rows("SELECT k, v, n, d FROM t ORDER BY n") { row in
                "\(row.text(0).utf8.count) \(row.blob(1).map { "\($0)" } ?? "nil") \(row.int(2)) \(row.double(3))"
            }
        }
        #expect(rows == ["4 nil \(Int.min) 1e+300", "4 [0, 255, 0] 0 0.0", "5 [] \(Int.max) -0.5"])
    }

    @Test func aStatementErrorIsTypedAndTheConnectionStaysUsable() throws {
        let pool = try makePool()
        #expect(throws: SQLiteError.self) {
            try pool.write { db in try db.run("INSERT INTO t (k) VALUES (?)", [.null]) }
        }
        #expect(throws: SQLiteError.self) {
            try pool.write { db in try db.run("SELECT * FROM missing") }
        }
        try pool.write { db in try db.run("INSERT INTO t (k) VALUES (?)", [.text("a")]) }
        #expect(try pool.read(isolated: false) { try $0.integer("SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func aThrowingTransactionIsRolledBack() throws {
        struct Stop: Error {}
        let pool = try makePool()
        #expect(throws: Stop.self) {
            try pool.write { db in
                try db.transaction(immediate: true) {
                    try db.run("INSERT INTO t (k) VALUES (?)", [.text("gone")])
                    throw Stop()
                }
            }
        }
        #expect(try pool.read(isolated: false) { try $0.integer("SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func readersDoNotWaitForAnOpenWriteTransaction() async throws {
        let pool = try makePool()
        try pool.write { db in try db.run("INSERT INTO t (k) VALUES ('before')") }
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writer = Thread {
            _ = try? pool.write { db in
                try db.transaction(immediate: true) {
                    try db.run("INSERT INTO t (k) VALUES ('during')")
                    inside.signal()
                    _ = release.wait(timeout: .now() + 10)
                }
            }
        }
        writer.start()
        #expect(inside.wait(timeout: .now() + 10) == .success)
        // The writer holds its transaction open: a reader sees the last commit at once.
        let seen = try pool.read(isolated: true) { db in try db.rows("SELECT k FROM t ORDER BY k") { $0.text(0) } }
        release.signal()
        #expect(seen == ["before"])
    }

    @Test func aFileThatIsNotADatabaseIsCorruption() throws {
        let path = directory + "/garbage.sqlite"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let connection = try Connection(path: path, mode: .readWrite)
        do {
            try connection.execute("PRAGMA journal_mode = WAL")
            Issue.record("a file of garbage was read as a database")
        } catch {
            #expect(error.isCorruption)
        }
    }
}
