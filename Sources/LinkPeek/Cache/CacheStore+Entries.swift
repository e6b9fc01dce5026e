import Dispatch
import FoundationEssentials
import SQLite

extension CacheStore {
    /// The row stored under `key`, or under the entry `key` is an alias of
    /// (a redirect's target); nil when there is none.
    func entry(_ key: String) -> StoredEntry? {
        if let queued = state.withLock({ $0.queuedEntry(key) }) { return queued }
        // One statement (so one read transaction, which in WAL mode costs
        // lock calls on the shared-memory file): the entry itself first, else
        // the entry its alias names; LIMIT 1 stops at the first found.
        let found = read(isolated: false) { db -> StoredEntry? in
            try db.firstRow(
                """
                SELECT key, originalURL, isFailure, body, expiresAt, mustRevalidate, etag, lastModified
                FROM entry WHERE key = ?1
                UNION ALL
                SELECT e.key, e.originalURL, e.isFailure, e.body, e.expiresAt, e.mustRevalidate, e.etag, e.lastModified
                FROM alias AS a JOIN entry AS e ON e.key = a.target WHERE a.key = ?1
                LIMIT 1
                """, [.text(key)]
            ) { row in
                StoredEntry(
                    key: row.text(0), originalURL: row.text(1), isFailure: row.bool(2), body: row.blob(3) ?? [],
                    expiresAt: row.double(4), mustRevalidate: row.bool(5), etag: row.optionalText(6),
                    lastModified: row.optionalText(7))
            }
        }
        guard let found = found ?? nil else { return nil }
        touch(found.key, at: Date().timeIntervalSince1970)
        return found
    }

    /// Stores `entry` under `key` (replacing what was there), makes each of
    /// `aliases` answer with it, and refreshes a saved link's pinned
    /// metadata. Returns false when it was not written (writes off, failed).
    ///
    /// Puts that meet share a transaction (group commit). A store that
    /// `writesBehind` goes further: a `put` made while other loads of this
    /// process still run (`beginLoad`) is queued and answers true at once;
    /// the queue is written in one transaction when the burst ends, when it
    /// holds `limits.rows` rows or `limits.bytes`, `limits.delay` after its
    /// first row, or with the next write of any kind — whichever comes first.
    /// `entry` reads queued rows; `flush()` writes them (before exit).
    @discardableResult
    func put(_ entry: CacheEntry, key: String, originalURL: String, aliases: [String] = [], now: Date) async -> Bool {
        guard let body = entry.storedBody else { return false }
        var isFailure = false
        if case .failure = entry.value { isFailure = true }
        let row = StoredEntry(
            key: key, originalURL: originalURL, isFailure: isFailure, body: body,
            expiresAt: entry.expiresAt.timeIntervalSince1970, mustRevalidate: entry.mustRevalidate,
            etag: entry.etag, lastModified: entry.lastModified)
        let put = PendingPut(row: row, aliases: aliases.filter { $0 != key }, time: now.timeIntervalSince1970)
        let limits = writeBehindLimits
        let (generation, behind, startTimer) = state.withLock { state -> (Int, Bool, Bool) in
            let generation = state.queue(put)
            guard writesBehind, state.loads > 1, state.queuedRows < limits.rows, state.queuedBytes < limits.bytes
            else { return (generation, false, false) }
            defer { state.flushTimerSet = true }
            return (generation, true, !state.flushTimerSet)
        }
        if behind {
            if startTimer { writes.asyncAfter(deadline: .now() + limits.delay) { self.flush() } }
            return true
        }
        // Written by this call's turn on the queue, or by a write before it.
        await onWriteQueue { self.flush() }
        return state.withLock { !$0.failedGenerations.contains(generation) }
    }

    /// Bounds of a written-behind queue (`put`).
    struct WriteBehindLimits: Sendable {
        var rows = 256
        var bytes = 4 << 20
        var delay: DispatchTimeInterval = .milliseconds(500)
    }

    /// A `put` waiting for a write.
    struct PendingPut: Sendable {
        var row: StoredEntry
        var aliases: [String]
        var time: Double
    }

    /// Notes that a load (a fetch that may `put`) started; `endLoad` when it
    /// is done. While more than one runs, a store that `writesBehind` queues.
    func beginLoad() {
        state.withLock { $0.loads += 1 }
    }

    /// Notes that a batch of loads started (the command's URLs, one after
    /// another or a few at once); `endBatch` when the last is done. A batch
    /// counts as one more load: while it runs, a store that `writesBehind`
    /// queues even the `put` of a load that runs alone, so that loads one at
    /// a time share a transaction as overlapping ones do, and the caller's
    /// answer does not wait for a commit of its own.
    func beginBatch() {
        beginLoad()
    }

    /// Notes that a batch ended: what it queued is written now (on the write queue).
    func endBatch() {
        endLoad()
    }

    /// Notes that a load ended; the last one of a burst writes what is queued.
    func endLoad() {
        let flush = state.withLock { state -> Bool in
            state.loads = max(0, state.loads - 1)
            return state.loads == 0 && state.hasQueuedWrites
        }
        if flush { writes.async { self.flush() } }
    }

    /// Writes every queued `put` and blob now, on the caller's thread:
    /// before a process exits, and before reads that must see them.
    public func flush() {
        let (queued, pool) = state.withLock { ($0.hasQueuedWrites, $0.pool) }
        guard queued else {
            // A write that already took the queue (the timer's) may still be
            // committing: wait for the writer, or the caller (a process at its
            // exit) would leave before those rows are in.
            _ = try? pool?.write { _ in () }
            return
        }
        _ = write { _ in true }
    }

    /// Writes `puts` in the caller's transaction (`write`), oldest first.
    static func insert(_ puts: [PendingPut], into db: Connection) throws {
        for put in puts { try insert(put, into: db) }
    }

    private static func insert(_ put: PendingPut, into db: Connection) throws {
        let (row, key, time) = (put.row, put.row.key, put.time)
        try db.run(
            """
            INSERT OR REPLACE INTO entry (key, originalURL, isFailure, body, storedAt, expiresAt,
                mustRevalidate, etag, lastModified, lastUsed, size)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(key), .text(row.originalURL), .bool(row.isFailure), .blob(row.body), .double(time),
             .double(row.expiresAt), .bool(row.mustRevalidate), .text(row.etag), .text(row.lastModified),
             .double(time), .integer(row.body.count + key.utf8.count)])
        try db.run("DELETE FROM alias WHERE key = ?", [.text(key)])
        for alias in put.aliases {
            try db.run("INSERT OR REPLACE INTO alias (key, target) VALUES (?, ?)", [.text(alias), .text(key)])
        }
        if !row.isFailure {
            try db.run("UPDATE saved SET body = ? WHERE key = ?", [.blob(row.body), .text(key)])
        }
    }

    /// Forgets the entry under `key` (a `no-store` answer replaces nothing with nothing).
    /// (Queued `put`s are written first, in the same transaction: see `write`.)
    func remove(_ key: String) async {
        await onWriteQueue {
            _ = self.write { db in
                try db.run("DELETE FROM entry WHERE key = ?", [.text(key)])
                try db.run("DELETE FROM alias WHERE key = ? OR target = ?", [.text(key), .text(key)])
            }
        }
    }
}
