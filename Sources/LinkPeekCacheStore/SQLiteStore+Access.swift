import Dispatch
import GRDB

extension SQLiteStore {
    /// Runs `body` on a reader connection; nil when the read failed (the
    /// failure is handled as `handle(_:from:)` says).
    ///
    /// With `isolated: false` the statements run outside a transaction: for
    /// a lookup whose statements need no common snapshot, which saves the
    /// `BEGIN`/`COMMIT` pair on the hot path (a third of a lookup's time).
    func read<T>(isolated: Bool = true, _ body: (Database) throws -> T) -> T? {
        let database = writer()
        do {
            return isolated ? try database.read(body) : try database.unsafeRead(body)
        } catch {
            handle(error, from: database)
            return nil
        }
    }

    /// Runs `body` in a write transaction on GRDB's writer queue, with the
    /// pending `lastUsed` updates; nil when writes are off or it failed.
    func write<T>(_ body: (Database) throws -> T) -> T? {
        let (touched, disabled) = state.withLock { state in
            defer { state.touched = [:] }
            return (state.touched, state.writesDisabled)
        }
        guard !disabled else { return nil }
        let database = writer()
        do {
            return try database.write { db in
                let entries = try db.cachedStatement(sql: "UPDATE entry SET lastUsed = ? WHERE key = ?")
                let blobs = try db.cachedStatement(sql: "UPDATE blob SET lastUsed = ? WHERE key = ?")
                for (key, time) in touched {
                    // Blob keys are marked; entry keys are URLs, which cannot start so.
                    if key.hasPrefix("blob:") {
                        try blobs.execute(arguments: [time, String(key.dropFirst(5))])
                    } else {
                        try entries.execute(arguments: [time, key])
                    }
                }
                return try body(db)
            }
        } catch {
            handle(error, from: database)
            return nil
        }
    }

    /// Notes that `key` was used, for least-recently-used eviction; written
    /// with the next write so that a read never writes.
    func touch(_ key: String, at time: Double) {
        state.withLock { state in
            if state.touched.count < 10_000 { state.touched[key] = time }
        }
    }

    /// What a failed database call means: a corrupt file is moved aside (the
    /// next call makes a new one); no space or no permission turns writes
    /// off; anything else (a busy timeout past 10 s) is said once. None of
    /// it fails the request that met it: the memory level still answers.
    func handle(_ error: any Error, from database: any DatabaseWriter) {
        let code = (error as? DatabaseError)?.resultCode.primaryResultCode
        let inMemory = state.withLock { $0.inMemory }
        if let error = error as? DatabaseError, Self.isCorruption(error), !inMemory, let path {
            let current = state.withLock { state -> Bool in
                guard let writer = state.writer, writer === database else { return false }
                state.writer = nil
                return true
            }
            if current { moveAside(path: path, why: error.message ?? "corrupt") }
            return
        }
        let unwritable: [ResultCode] = [.SQLITE_READONLY, .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_PERM]
        if let code, unwritable.contains(code) {
            state.withLock { $0.writesDisabled = true }
            say("cannot write to \(path ?? "the cache") (\(error)); serving from the network and memory.",
                topic: "write")
            return
        }
        say("a cache operation failed: \(error)", topic: "other")
    }
}
