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
/// as "make it again". Writes are durable once `storeBlob` returns true;
/// `storeBlobBehind` answers at once and its blob is written by the write
/// queue soon after, or by `flush()` (which `LinkPeekEngine.shutdown` and a
/// daemon's end call), whichever comes first.
extension CacheStore {
    /// The bytes stored under `key` when they have not expired; nil otherwise.
    public func blob(_ key: String, now: Date = Date()) -> [UInt8]? {
        let seconds = now.timeIntervalSince1970
        if let queued = state.withLock({ $0.queuedBlobs[key] }) {
            return queued.expiresAt > seconds ? queued.bytes : nil
        }
        let found = read(isolated: false) { db -> [UInt8]? in
            try db.firstRow("SELECT bytes FROM blob WHERE key = ? AND expiresAt > ?", [.text(key), .double(seconds)]) {
                $0.blob(0) ?? []
            }
        }
        guard let bytes = found ?? nil else { return nil }
        touch("blob:" + key, at: seconds)
        return bytes
    }

    /// A blob write waiting for the write queue (`storeBlobBehind`).
    struct PendingBlob: Sendable {
        var key: String
        var bytes: [UInt8]
        var expiresAt: Double
        var time: Double
    }

    /// Stores `bytes` under `key` until `expiresAt` behind the caller: it
    /// returns at once, `blob` reads them from then on, and they are written
    /// on the write queue (with any other write that comes first).
    public func storeBlobBehind(_ bytes: [UInt8], for key: String, expiresAt: Date, now: Date = Date()) {
        let blob = PendingBlob(
            key: key, bytes: bytes, expiresAt: expiresAt.timeIntervalSince1970, time: now.timeIntervalSince1970)
        state.withLock { $0.queue(blob) }
        writes.async { self.flush() }
    }

    static func insert(_ blob: PendingBlob, into db: Connection) throws {
        try db.run(
            "INSERT OR REPLACE INTO blob (key, bytes, expiresAt, lastUsed, size) VALUES (?, ?, ?, ?, ?)",
            [.text(blob.key), .blob(blob.bytes), .double(blob.expiresAt), .double(blob.time),
             .integer(blob.bytes.count + blob.key.utf8.count)])
    }

    /// Stores `bytes` under `key` until `expiresAt`; false when not written.
    @discardableResult
    public func storeBlob(_ bytes: [UInt8], for key: String, expiresAt: Date, now: Date = Date()) async -> Bool {
        let blob = PendingBlob(
            key: key, bytes: bytes, expiresAt: expiresAt.timeIntervalSince1970, time: now.timeIntervalSince1970)
        return await onWriteQueue {
            let written = self.write { db -> Bool in
                try Self.insert(blob, into: db)
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
