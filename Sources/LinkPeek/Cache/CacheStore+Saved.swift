import FoundationEssentials
import SQLite

extension CacheStore {
    /// Saves `url` (or updates it: the first `savedAt` stays; `tags`, when
    /// given, replace the old ones), pinning `body`. False when it could not
    /// be written.
    public func save(url: String, key: String, tags: [String]?, body: [UInt8]?, at time: Date) async -> Bool {
        let seconds = time.timeIntervalSince1970
        return await onWriteQueue {
            self.write { db -> Bool in
                try db.run(
                    """
                    INSERT INTO saved (url, key, savedAt, body) VALUES (?, ?, ?, ?)
                    ON CONFLICT(url) DO UPDATE SET key = excluded.key, body = COALESCE(excluded.body, saved.body)
                    """,
                    [.text(url), .text(key), .double(seconds), .blob(body)])
                if let tags {
                    try db.run("DELETE FROM savedTag WHERE url = ?", [.text(url)])
                    for tag in Set(tags) {
                        try db.run("INSERT INTO savedTag (url, tag) VALUES (?, ?)", [.text(url), .text(tag)])
                    }
                }
                return true
            } == true
        }
    }

    /// Removes the saved link; whether there was one, nil when it could not
    /// be written. Its cache entry stays, now evictable like any other.
    public func unsave(url: String) async -> Bool? {
        await onWriteQueue {
            self.write { db -> Bool in
                try db.run("DELETE FROM savedTag WHERE url = ?", [.text(url)])
                try db.run("DELETE FROM saved WHERE url = ?", [.text(url)])
                return db.changes > 0
            }
        }
    }

    /// Saved links, newest first, optionally only those with `tag`.
    public func saved(tag: String? = nil, limit: Int = Int(Int32.max), offset: Int = 0) -> [SavedRecord] {
        if writesBehind { flush() }  // a queued `put` refreshes saved bodies
        return read { db -> [SavedRecord] in
            let filter = tag == nil ? "" : "WHERE url IN (SELECT url FROM savedTag WHERE tag = ?)"
            let values: [SQLValue] = (tag.map { [.text($0)] } ?? []) + [.integer(limit), .integer(offset)]
            let rows = try db.rows(
                "SELECT url, savedAt, body FROM saved \(filter) ORDER BY savedAt DESC, url LIMIT ? OFFSET ?", values
            ) { row in SavedRecord(url: row.text(0), savedAt: row.double(1), tags: [], body: row.blob(2)) }
            return try rows.map { record in
                var record = record
                record.tags = try db.rows("SELECT tag FROM savedTag WHERE url = ? ORDER BY tag", [.text(record.url)]) {
                    $0.text(0)
                }
                return record
            }
        } ?? []
    }
}
