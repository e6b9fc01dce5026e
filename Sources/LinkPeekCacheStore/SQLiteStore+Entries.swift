import CacheABI
import FoundationEssentials
import GRDB

extension SQLiteStore {
    /// The row stored under `key`, or under the entry `key` is an alias of
    /// (a redirect's target); nil when there is none.
    func entry(_ key: String) -> StoredRow? {
        // Not isolated: an alias and its target read at two instants can only
        // miss (an entry replaced in between), which a lookup tolerates.
        let found = read(isolated: false) { db -> StoredRow? in
            if let row = try Self.fetchEntry(db, key) { return row }
            guard let target = try String.fetchOne(
                db.cachedStatement(sql: "SELECT target FROM alias WHERE key = ?"), arguments: [key])
            else { return nil }
            return try Self.fetchEntry(db, target)
        }
        guard let found = found ?? nil else { return nil }
        touch(found.key, at: Date().timeIntervalSince1970)
        return found
    }

    private static func fetchEntry(_ db: Database, _ key: String) throws -> StoredRow? {
        let statement = try db.cachedStatement(sql: """
            SELECT originalURL, isFailure, body, expiresAt, mustRevalidate, etag, lastModified
            FROM entry WHERE key = ?
            """)
        guard let row = try Row.fetchOne(statement, arguments: [key]) else { return nil }
        let body: Data = row[2]
        return StoredRow(
            key: key, originalURL: row[0], isFailure: row[1], body: [UInt8](body), expiresAt: row[3],
            mustRevalidate: row[4], etag: row[5], lastModified: row[6])
    }

    /// Stores `row` under its key (replacing what was there), makes each of
    /// `aliases` answer with it, and refreshes a saved link's pinned
    /// metadata. Returns false when it was not written (writes off, failed).
    @discardableResult
    func put(_ row: StoredRow, aliases: [String] = [], now time: Double) -> Bool {
        let (key, originalURL, isFailure, body) = (row.key, row.originalURL, row.isFailure, row.body)
        let written = write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO entry (key, originalURL, isFailure, body, storedAt, expiresAt,
                        mustRevalidate, etag, lastModified, lastUsed, size)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [key, originalURL, isFailure, Data(body), time, row.expiresAt,
                            row.mustRevalidate, row.etag, row.lastModified, time, body.count + key.utf8.count])
            try db.execute(sql: "DELETE FROM alias WHERE key = ?", arguments: [key])
            for alias in aliases where alias != key {
                try db.execute(sql: "INSERT OR REPLACE INTO alias (key, target) VALUES (?, ?)", arguments: [alias, key])
            }
            if !isFailure {
                try db.execute(sql: "UPDATE saved SET body = ? WHERE key = ?", arguments: [Data(body), key])
            }
            return true
        }
        if written == true { notePruneCheck() }
        return written == true
    }

    /// Forgets the entry under `key` (a `no-store` answer replaces nothing with nothing).
    func remove(_ key: String) {
        _ = write { db in
            try db.execute(sql: "DELETE FROM entry WHERE key = ?", arguments: [key])
            try db.execute(sql: "DELETE FROM alias WHERE key = ? OR target = ?", arguments: [key, key])
        }
    }
}
