import CacheABI
import FoundationEssentials
import GRDB

extension SQLiteStore {
    /// Saves `url` (or updates it: the first `savedAt` stays; `tags`, when
    /// given, replace the old ones), pinning `body`. False when it could not
    /// be written.
    public func save(url: String, key: String, tags: [String]?, body: [UInt8]?, at seconds: Double) -> Bool {
        let written = write { db -> Bool in
            try db.execute(
                sql: """
                    INSERT INTO saved (url, key, savedAt, body) VALUES (?, ?, ?, ?)
                    ON CONFLICT(url) DO UPDATE SET key = excluded.key, body = COALESCE(excluded.body, saved.body)
                    """,
                arguments: [url, key, seconds, body.map { Data($0) }])
            if let tags {
                try db.execute(sql: "DELETE FROM savedTag WHERE url = ?", arguments: [url])
                for tag in Set(tags) {
                    try db.execute(sql: "INSERT INTO savedTag (url, tag) VALUES (?, ?)", arguments: [url, tag])
                }
            }
            return true
        }
        return written == true
    }

    /// Removes the saved link; true when there was one. Its cache entry
    /// stays, now evictable like any other.
    public func unsave(url: String) -> Bool? {
        write { db -> Bool in
            try db.execute(sql: "DELETE FROM savedTag WHERE url = ?", arguments: [url])
            try db.execute(sql: "DELETE FROM saved WHERE url = ?", arguments: [url])
            return db.changesCount > 0
        }
    }

    /// Saved links, newest first, optionally only those with `tag`.
    public func saved(tag: String? = nil, limit: Int = Int(Int32.max), offset: Int = 0) -> [SavedRecord] {
        read { db -> [SavedRecord] in
            let filter = tag == nil ? "" : "WHERE url IN (SELECT url FROM savedTag WHERE tag = ?)"
            var arguments: StatementArguments = tag.map { [$0] } ?? []
            arguments += [limit, offset]
            let rows = try Row.fetchAll(
                db, sql: "SELECT url, savedAt, body FROM saved \(filter) ORDER BY savedAt DESC, url LIMIT ? OFFSET ?",
                arguments: arguments)
            let tagStatement = try db.cachedStatement(sql: "SELECT tag FROM savedTag WHERE url = ? ORDER BY tag")
            return try rows.map { row in
                let url: String = row[0]
                let body: Data? = row[2]
                return SavedRecord(
                    url: url, savedAt: row[1],
                    tags: try String.fetchAll(tagStatement, arguments: [url]), body: body.map { [UInt8]($0) })
            }
        } ?? []
    }
}
