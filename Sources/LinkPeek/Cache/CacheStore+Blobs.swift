import FoundationEssentials
import SQLite

/// A small generic byte store in the cache database, for other parts of
/// linkpeek that keep derived files (image variants: `getMedia`).
///
/// Blobs are kept by a string key the caller makes up (prefix it with the
/// feature's name: `StoredImageStore` keeps `image:source <url>` and
/// `image:variant <url> <transform>`), expire at the
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

    /// Forgets the blob under `key` (one its owner found damaged).
    public func removeBlob(_ key: String) async {
        await onWriteQueue {
            _ = self.write { db in try db.run("DELETE FROM blob WHERE key = ?", [.text(key)]) }
        }
    }
}
