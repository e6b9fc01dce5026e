import CacheABI
import Dispatch
import FoundationEssentials
import GRDB

#if canImport(Glibc)
import Glibc
#endif

extension SQLiteStore {
    public func stats() -> CacheStats {
        let counts = read { db -> (Int, Int, Int, Int, Int, Double?, Double?) in
            let entries = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry WHERE isFailure = 0") ?? 0
            let failures = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM entry WHERE isFailure = 1") ?? 0
            let saved = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM saved") ?? 0
            let blobs = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM blob") ?? 0
            let range = try Row.fetchOne(db, sql: "SELECT MIN(storedAt), MAX(storedAt) FROM entry")
            return (entries, failures, saved, blobs, try Self.usedBytes(db), range?[0], range?[1])
        }
        let (entries, failures, saved, blobs, used, oldest, newest) = counts ?? (0, 0, 0, 0, 0, nil, nil)
        let onDisk = isInMemory ? nil : path
        let fileBytes = onDisk.map { path in
            ["", "-wal"].reduce(0) { total, suffix in
                let size = (try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size]) as? Int
                return total + (size ?? 0)
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
            try Row.fetchAll(
                db, sql: "SELECT pid, startedAt, hits, misses, updatedAt FROM usage WHERE updatedAt > ? ORDER BY startedAt",
                arguments: [since])
        } ?? []
        return rows.map { DaemonUsage(pid: $0[0], startedAt: $0[1], hits: $0[2], misses: $0[3], updatedAt: $0[4]) }
            .filter { kill(pid_t(truncatingIfNeeded: $0.pid), 0) == 0 }
    }

    /// Records a daemon's use; rows a day old go.
    func report(_ usage: DaemonUsage) -> Bool {
        write { db -> Bool in
            try db.execute(
                sql: "INSERT OR REPLACE INTO usage (pid, startedAt, hits, misses, updatedAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [usage.pid, usage.startedAt, usage.hits, usage.misses, usage.updatedAt])
            try db.execute(sql: "DELETE FROM usage WHERE updatedAt < ?", arguments: [usage.updatedAt - 86400])
            return true
        } ?? false
    }

    static func usedBytes(_ db: Database) throws -> Int {
        let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
        let size = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
        return (pages - free) * size
    }

    /// Forgets every preview, failure and blob; saved links stay. Returns the entries removed.
    public func clear() -> Int {
        let removed = write { db -> Int in
            try db.execute(sql: "DELETE FROM entry WHERE key NOT IN (SELECT key FROM saved)")
            let count = db.changesCount
            try db.execute(sql: "DELETE FROM alias; DELETE FROM blob; PRAGMA incremental_vacuum")
            return count
        }
        checkpoint()
        return removed ?? 0
    }

    /// Removes expired blobs, then the least recently used entries and blobs
    /// (never a saved link's) until the pages in use are under 80 % of the
    /// limit, and gives the freed pages back to the file system. Returns
    /// how many rows went.
    @discardableResult
    public func prune() -> Int {
        let target = sizeLimit / 10 * 8
        let now = Date().timeIntervalSince1970
        let removed = write { db -> Int in
            try db.execute(sql: "DELETE FROM blob WHERE expiresAt < ?", arguments: [now])
            var removed = db.changesCount
            while try Self.usedBytes(db) > target {
                let victims = try Row.fetchAll(db, sql: """
                    SELECT 0, key, lastUsed FROM entry WHERE key NOT IN (SELECT key FROM saved)
                    UNION ALL SELECT 1, key, lastUsed FROM blob ORDER BY 3 LIMIT 256
                    """)
                if victims.isEmpty { break }
                for victim in victims {
                    let table = (victim[0] as Int) == 0 ? "entry" : "blob"
                    try db.execute(sql: "DELETE FROM \(table) WHERE key = ?", arguments: [victim[1] as String])
                }
                removed += victims.count
                try db.execute(sql: "PRAGMA incremental_vacuum")
            }
            try db.execute(sql: "DELETE FROM alias WHERE target NOT IN (SELECT key FROM entry)")
            try db.execute(sql: "PRAGMA incremental_vacuum")
            return removed
        }
        checkpoint()
        return removed ?? 0
    }

    /// Moves the WAL into the file and truncates it, when no reader holds it.
    private func checkpoint() {
        guard let pool = writer() as? DatabasePool else { return }
        _ = try? pool.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    /// Counts a write; every 64th checks the size and prunes in the
    /// background when the file is over its limit.
    func notePruneCheck() {
        let due = state.withLock { state -> Bool in
            state.writesSincePruneCheck += 1
            return state.writesSincePruneCheck % 64 == 1 && !state.pruning
        }
        guard due, let used = read(Self.usedBytes), used > sizeLimit else { return }
        state.withLock { $0.pruning = true }
        DispatchQueue.global(qos: .background).async {
            self.prune()
            self.state.withLock { $0.pruning = false }
        }
    }
}
