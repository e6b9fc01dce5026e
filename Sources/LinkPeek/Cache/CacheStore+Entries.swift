import FoundationEssentials
import SQLite

extension CacheStore {
    /// The row stored under `key`, or under the entry `key` is an alias of
    /// (a redirect's target); nil when there is none.
    func entry(_ key: String) -> StoredEntry? {
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
    @discardableResult
    func put(_ entry: CacheEntry, key: String, originalURL: String, aliases: [String] = [], now: Date) async -> Bool {
        guard let body = entry.storedBody else { return false }
        var isFailure = false
        if case .failure = entry.value { isFailure = true }
        let row = StoredEntry(
            key: key, originalURL: originalURL, isFailure: isFailure, body: body,
            expiresAt: entry.expiresAt.timeIntervalSince1970, mustRevalidate: entry.mustRevalidate,
            etag: entry.etag, lastModified: entry.lastModified)
        let put = PendingPut(row: row, aliases: aliases, time: now.timeIntervalSince1970)
        return await withCheckedContinuation { continuation in
            let schedule = state.withLock { state -> Bool in
                state.pendingPuts.append((put, continuation))
                defer { state.putFlushScheduled = true }
                return !state.putFlushScheduled
            }
            if schedule { writes.async { self.flushPuts() } }
        }
    }

    /// A `put` waiting for the write queue.
    struct PendingPut: Sendable {
        var row: StoredEntry
        var aliases: [String]
        var time: Double
    }

    /// Writes every waiting `put` in one transaction (group commit: puts that
    /// arrive while a commit is under way share the next one), then answers each.
    ///
    /// - Important: runs on the write queue only.
    private func flushPuts() {
        let batch = state.withLock { state in
            defer {
                state.pendingPuts = []
                state.putFlushScheduled = false
            }
            return state.pendingPuts
        }
        let written = write { db -> Bool in
            for (put, _) in batch { try Self.insert(put, into: db) }
            return true
        } == true
        for (_, continuation) in batch { continuation.resume(returning: written) }
        if written { notePruneCheck(count: batch.count) }
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
        for alias in put.aliases where alias != key {
            try db.run("INSERT OR REPLACE INTO alias (key, target) VALUES (?, ?)", [.text(alias), .text(key)])
        }
        if !row.isFailure {
            try db.run("UPDATE saved SET body = ? WHERE key = ?", [.blob(row.body), .text(key)])
        }
    }

    /// Forgets the entry under `key` (a `no-store` answer replaces nothing with nothing).
    func remove(_ key: String) async {
        await onWriteQueue {
            _ = self.write { db in
                try db.run("DELETE FROM entry WHERE key = ?", [.text(key)])
                try db.run("DELETE FROM alias WHERE key = ? OR target = ?", [.text(key), .text(key)])
            }
        }
    }
}
