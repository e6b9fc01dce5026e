import Dispatch
import FoundationEssentials
import SQLite

#if canImport(Glibc)
import Glibc
import Logging
#endif

extension CacheStore {
    public func stats() -> CacheStats {
        if writesBehind { flush() }  // count the rows written behind too
        let counts = read { db -> (Int, Int, Int, Int, Int, Double?, Double?) in
            let entries = try db.integer("SELECT COUNT(*) FROM entry WHERE isFailure = 0")
            let failures = try db.integer("SELECT COUNT(*) FROM entry WHERE isFailure = 1")
            let saved = try db.integer("SELECT COUNT(*) FROM saved")
            let blobs = try db.integer("SELECT COUNT(*) FROM blob")
            let range = try db.firstRow("SELECT MIN(storedAt), MAX(storedAt) FROM entry") { row in
                (row.isNull(0) ? nil : row.double(0), row.isNull(1) ? nil : row.double(1))
            }
            return (entries, failures, saved, blobs, try Self.usedBytes(db), range?.0, range?.1)
        }
        let (entries, failures, saved, blobs, used, oldest, newest) = counts ?? (0, 0, 0, 0, 0, nil, nil)
        let onDisk = isInMemory ? nil : path
        let fileBytes = onDisk.map { path in
            ["", "-wal"].reduce(0) { total, suffix in
                var info = stat()
                return total + (stat(path + suffix, &info) == 0 ? Int(info.st_size) : 0)
            }
        } ?? 0
        func iso(_ time: Double?) -> String? { time.map { Date(timeIntervalSince1970: $0).formatted(.iso8601) } }
        var stats = CacheStats(
            location: onDisk ?? "memory", entries: entries, failures: failures, saved: saved, blobs: blobs,
            fileBytes: fileBytes, usedBytes: used, sizeLimit: sizeLimit, oldest: iso(oldest), newest: iso(newest))
        stats.daemons = runningDaemons()
        return stats
    }

    /// Usage rows of daemons still running (by pid, and updated in the last day).
    private func runningDaemons() -> [DaemonUsage] {
        let since = Date().timeIntervalSince1970 - 86400
        let rows = read { db in
            try db.rows(
                "SELECT pid, startedAt, hits, misses, updatedAt FROM usage WHERE updatedAt > ? ORDER BY startedAt",
                [.double(since)]
            ) { row in
                DaemonUsage(pid: row.int(0), startedAt: row.double(1), hits: row.int(2), misses: row.int(3),
                            updatedAt: row.double(4))
            }
        } ?? []
        return rows.filter { kill(pid_t(truncatingIfNeeded: $0.pid), 0) == 0 }
    }

    /// Records this daemon's cache use, for `linkpeek cache stats`; rows a day old go.
    func report(_ usage: DaemonUsage) async {
        await onWriteQueue {
            _ = self.write { db in
                try db.run(
                    "INSERT OR REPLACE INTO usage (pid, startedAt, hits, misses, updatedAt) VALUES (?, ?, ?, ?, ?)",
                    [.integer(usage.pid), .double(usage.startedAt), .integer(usage.hits), .integer(usage.misses),
                     .double(usage.updatedAt)])
                try db.run("DELETE FROM usage WHERE updatedAt < ?", [.double(usage.updatedAt - 86400)])
            }
        }
    }

    static func usedBytes(_ db: Connection) throws(SQLiteError) -> Int {
        let pages = try db.integer("PRAGMA page_count")
        let free = try db.integer("PRAGMA freelist_count")
        let size = try db.integer("PRAGMA page_size")
        return (pages - free) * (size > 0 ? size : 4096)
    }

    /// Forgets every preview, failure and blob; saved links stay. Returns the entries removed.
    public func clear() async -> Int {
        await onWriteQueue {
            let removed = self.write { db -> Int in
                try db.run("DELETE FROM entry WHERE key NOT IN (SELECT key FROM saved)")
                let count = db.changes
                try db.execute("DELETE FROM alias; DELETE FROM blob; PRAGMA incremental_vacuum")
                return count
            }
            self.checkpoint()
            return removed ?? 0
        }
    }

    /// Removes expired blobs, then the least recently used entries and blobs
    /// (never a saved link's) until the pages in use are under 80 % of the
    /// limit, and gives the freed pages back to the file system. Returns
    /// how many rows went.
    @discardableResult
    public func prune() async -> Int {
        await onWriteQueue { self.pruneNow() }
    }

    /// `prune`, on the caller's thread.
    func pruneNow() -> Int {
        let target = sizeLimit / 10 * 8
        let now = Date().timeIntervalSince1970
        let removed = write { db -> Int in
            try db.run("DELETE FROM blob WHERE expiresAt < ?", [.double(now)])
            var removed = db.changes
            while case let used = try Self.usedBytes(db), used > target {
                // The least recently used first, only as many as free the
                // excess by their own size (a batch of 256 could take the
                // newest entries too when fewer than that are over).
                let candidates = try db.rows(
                    """
                    SELECT 0, key, lastUsed, length(body) + length(key) FROM entry WHERE key NOT IN (SELECT key FROM saved)
                    UNION ALL SELECT 1, key, lastUsed, size FROM blob ORDER BY 3 LIMIT 256
                    """
                ) { row in (isEntry: row.int(0) == 0, key: row.text(1), size: max(1, row.int(3))) }
                if candidates.isEmpty { break }
                var victims = candidates.prefix(0)
                var freed = 0
                for candidate in candidates where freed < used - target {
                    victims = candidates.prefix(victims.count + 1)
                    freed += candidate.size
                }
                for victim in victims {
                    if victim.isEntry {
                        try db.run("DELETE FROM entry WHERE key = ?", [.text(victim.key)])
                    } else {
                        try db.run("DELETE FROM blob WHERE key = ?", [.text(victim.key)])
                    }
                }
                removed += victims.count
                try db.execute("PRAGMA incremental_vacuum")
            }
            try db.run("DELETE FROM alias WHERE target NOT IN (SELECT key FROM entry)")
            try db.execute("PRAGMA incremental_vacuum")
            return removed
        }
        checkpoint()
        if let removed, removed > 0 {
            logger.info("cache entries dropped", metadata: [
                "count": "\(removed)", "reason": "expired images, then the least recently used over 80% of the size limit",
                "size limit": "\(sizeLimit)",
            ])
        }
        return removed ?? 0
    }

    /// Moves the WAL into the file and truncates it, when no reader holds it.
    /// One that fails costs only disk space until the next: said at `debug`.
    private func checkpoint() {
        guard !isInMemory, let pool = database() else { return }
        do { try pool.write { db in try db.execute("PRAGMA wal_checkpoint(TRUNCATE)") } } catch {
            logger.debug("WAL checkpoint failed", metadata: ["error": "\(error)"])
        }
    }

    /// Counts `count` writes; the 1st, 65th, 129th… checks the size and
    /// prunes in the background when the file is over its limit.
    func notePruneCheck(count: Int = 1) {
        let due = state.withLock { state -> Bool in
            let before = state.writesSincePruneCheck
            state.writesSincePruneCheck += count
            return (before + 63) / 64 != (state.writesSincePruneCheck + 63) / 64 && !state.pruning
        }
        guard due, let used = read({ db in try Self.usedBytes(db) }), used > sizeLimit else { return }
        state.withLock { $0.pruning = true }
        DispatchQueue.global(qos: .background).async {
            _ = self.pruneNow()
            self.state.withLock { $0.pruning = false }
        }
    }
}
