import FoundationEssentials
import Logging
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

    /// Saved links as `saved` lists them, newest first: each pinned preview
    /// (or just its URL when it has none) with `savedAt` and `tags`.
    ///
    /// A pinned preview that does not decode is said at `warning` (the user
    /// pinned it) and dropped, so that it is said once: the link is listed
    /// with its URL, and the next fetch or save of it pins a new preview.
    public func savedLinks(tag: String? = nil, limit: Int = Int(Int32.max), offset: Int = 0) async -> [LinkMetadata] {
        var links: [LinkMetadata] = []
        for record in saved(tag: tag, limit: limit, offset: offset) {
            var metadata = LinkMetadata(originalURL: record.url)
            if let body = record.body {
                do throws(StoredDamage) {
                    metadata = try StoredDamage.decode(LinkMetadata.self, from: body)
                } catch {
                    logger.warning("saved link's preview unreadable; dropped, the link stays", metadata: [
                        "url": "\(record.url)", "error": "\(error)",
                    ])
                    await dropSavedBody(url: record.url, body: body)
                }
            }
            metadata.savedAt = Date(timeIntervalSince1970: record.savedAt).formatted(.iso8601)
            metadata.tags = record.tags
            metadata.stale = nil
            links.append(metadata)
        }
        return links
    }

    /// Forgets a saved link's pinned preview, unless it was rewritten since it was read.
    private func dropSavedBody(url: String, body: [UInt8]) async {
        await onWriteQueue {
            _ = self.write { db in
                try db.run("UPDATE saved SET body = NULL WHERE url = ? AND body = ?", [.text(url), .blob(body)])
            }
        }
    }
}
