import FoundationEssentials
import GRDB

/// A small generic byte store in the cache database, for other parts of
/// linkpeek that keep derived files (image variants: `getMedia`).
///
/// Blobs are kept by a string key the caller makes up (prefix it with the
/// feature's name, e.g. `media:<url>:<width>x<height>.webp`), expire at the
/// time given, and count towards the cache's size limit: the background
/// prune removes expired blobs first, then the least recently used entries
/// and blobs together. A blob may vanish at any time; callers treat a miss
/// as "make it again". Writes are durable once `storeBlob` returns true.
extension SQLiteStore {
    /// The bytes stored under `key` when they have not expired; nil otherwise.
    public func blob(_ key: String, now: Double) -> [UInt8]? {
        let found = read(isolated: false) { db -> Data? in
            try Data.fetchOne(
                db.cachedStatement(sql: "SELECT bytes FROM blob WHERE key = ? AND expiresAt > ?"),
                arguments: [key, now])
        }
        guard let data = found ?? nil else { return nil }
        state.withLock { state in
            if state.touched.count < 10_000 { state.touched["blob:" + key] = now }
        }
        return [UInt8](data)
    }

    /// Stores `bytes` under `key` until `expiresAt`; false when not written.
    @discardableResult
    public func storeBlob(_ bytes: [UInt8], for key: String, expiresAt: Double, now: Double) -> Bool {
        let written = write { db -> Bool in
            try db.execute(
                sql: "INSERT OR REPLACE INTO blob (key, bytes, expiresAt, lastUsed, size) VALUES (?, ?, ?, ?, ?)",
                arguments: [key, Data(bytes), expiresAt, now,
                            bytes.count + key.utf8.count])
            return true
        }
        if written == true { notePruneCheck() }
        return written == true
    }
}
