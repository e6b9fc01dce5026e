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
        read { db -> [SavedRecord] in
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

/// A small generic byte store in the cache database, for other parts of
/// linkpeek that keep derived files (image variants: `getMedia`).
///
/// Blobs are kept by a string key the caller makes up (prefix it with the
/// feature's name, e.g. `media:<url>:<width>x<height>.webp`), expire at the
/// time given, and count towards the cache's size limit: the background
/// prune removes expired blobs first, then the least recently used entries
/// and blobs together. A blob may vanish at any time; callers treat a miss
/// as "make it again". Writes are durable once `storeBlob` returns true.
extension CacheStore {
    /// The bytes stored under `key` when they have not expired; nil otherwise.
    public func blob(_ key: String, now: Date = Date()) -> [UInt8]? {
        let seconds = now.timeIntervalSince1970
        let found = read(isolated: false) { db -> [UInt8]? in
            try db.firstRow("SELECT bytes FROM blob WHERE key = ? AND expiresAt > ?", [.text(key), .double(seconds)]) {
                $0.blob(0) ?? []
            }
        }
        guard let bytes = found ?? nil else { return nil }
        touch("blob:" + key, at: seconds)
        return bytes
    }

    /// Stores `bytes` under `key` until `expiresAt`; false when not written.
    @discardableResult
    public func storeBlob(_ bytes: [UInt8], for key: String, expiresAt: Date, now: Date = Date()) async -> Bool {
        let (expires, seconds) = (expiresAt.timeIntervalSince1970, now.timeIntervalSince1970)
        return await onWriteQueue {
            let written = self.write { db -> Bool in
                try db.run(
                    "INSERT OR REPLACE INTO blob (key, bytes, expiresAt, lastUsed, size) VALUES (?, ?, ?, ?, ?)",
                    [.text(key), .blob(bytes), .double(expires), .double(seconds), .integer(bytes.count + key.utf8.count)])
                return true
            }
            if written == true { self.notePruneCheck() }
            return written == true
        }
    }
}
