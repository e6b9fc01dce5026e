import SQLite

extension CacheStore {
    /// Runs `body` on a reader connection; nil when the read failed (the
    /// failure is handled as `handle(_:from:)` says).
    ///
    /// With `isolated: false` the statements run outside a transaction: for
    /// a lookup whose statements need no common snapshot, which saves the
    /// `BEGIN`/`COMMIT` pair on the hot path.
    func read<T: Sendable>(isolated: Bool = true, _ body: (Connection) throws -> T) -> T? {
        guard let pool = database() else { return nil }
        do {
            return try pool.read(isolated: isolated, body)
        } catch {
            handle(error, from: pool)
            return nil
        }
    }

    /// Runs `body` in an immediate write transaction on the writer
    /// connection, after the pending `lastUsed` updates and the queued
    /// `put`s (so that every write keeps their order); nil when writes are
    /// off or it failed (the queued rows are then dropped: it is a cache).
    func write<T: Sendable>(_ body: (Connection) throws -> T) -> T? {
        guard let pool = database() else {
            state.withLock { $0.failed($0.takeWrites().generation) }
            return nil
        }
        var generation: Int?
        do {
            let (result, rows) = try pool.write { db -> (T?, Int) in
                // Taken under the writer's lock: two writers cannot swap the order of queued rows.
                let (taken, disabled) = state.withLock { state in
                    let taken = state.takeWrites()
                    if state.writesDisabled { state.failed(taken.generation) }
                    return (taken, state.writesDisabled)
                }
                if disabled { return (nil, 0) }
                generation = taken.generation
                let result = try db.transaction(immediate: true) {
                    for (key, time) in taken.touched {
                        // Blob keys are marked; entry keys are URLs, which cannot start so.
                        if key.hasPrefix("blob:") {
                            try db.run("UPDATE blob SET lastUsed = ? WHERE key = ?",
                                       [.double(time), .text(String(key.dropFirst(5)))])
                        } else {
                            try db.run("UPDATE entry SET lastUsed = ? WHERE key = ?", [.double(time), .text(key)])
                        }
                    }
                    try Self.insert(taken.puts, into: db)
                    for blob in taken.blobs { try Self.insert(blob, into: db) }
                    return try body(db)
                }
                return (result, taken.puts.count + taken.blobs.count)
            }
            if rows > 0 { notePruneCheck(count: rows) }
            return result
        } catch {
            if let generation { state.withLock { $0.failed(generation) } }
            handle(error, from: pool)
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
    func handle(_ error: any Error, from pool: DatabasePool) {
        let sqlite = error as? SQLiteError
        let inMemory = state.withLock { $0.inMemory }
        if let sqlite, sqlite.isCorruption, !inMemory, let path {
            let current = state.withLock { state -> Bool in
                guard let open = state.pool, open === pool else { return false }
                state.pool = nil
                return true
            }
            // Connections in use close when their calls return (the pool goes with its last user).
            if current { moveAside(path: path, why: sqlite.message) }
            return
        }
        if let sqlite, sqlite.isUnwritable {
            state.withLock { $0.writesDisabled = true }
            say("cannot write to \(path ?? "the cache") (\(error)); serving from the network and memory.",
                topic: "write")
            return
        }
        say("a cache operation failed: \(error)", topic: "other")
    }
}
