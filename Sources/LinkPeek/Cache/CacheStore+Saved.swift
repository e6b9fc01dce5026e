import CacheABI
import FoundationEssentials

extension CacheStore {
    /// Saves `url` (or updates it: the first `savedAt` stays; `tags`, when
    /// given, replace the old ones), pinning `body`. False when it could not
    /// be written.
    public func save(url: String, key: String, tags: [String]?, body: [UInt8]?, at time: Date) async -> Bool {
        var input = ByteWriter()
        input.string(url)
        input.string(key)
        input.optional(tags) { $0.strings($1) }
        input.optional(body) { $0.data($1) }
        input.double(time.timeIntervalSince1970)
        var output = await performWriting(.save, input)
        return output?.bool() ?? false
    }

    /// Removes the saved link; whether there was one, nil when it could not
    /// be written. Its cache entry stays, now evictable like any other.
    public func unsave(url: String) async -> Bool? {
        var input = ByteWriter()
        input.string(url)
        var output = await performWriting(.unsave, input)
        return output?.bool()
    }

    /// Saved links, newest first, optionally only those with `tag`.
    public func saved(tag: String? = nil, limit: Int = Int(Int32.max), offset: Int = 0) -> [SavedRecord] {
        var input = ByteWriter()
        input.optional(tag) { $0.string($1) }
        input.int(limit)
        input.int(offset)
        guard var output = perform(.saved, input), let count = output.int(), count >= 0 else { return [] }
        var records: [SavedRecord] = []
        for _ in 0..<count {
            guard let record = SavedRecord(from: &output) else { break }
            records.append(record)
        }
        return records
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
        var input = ByteWriter()
        input.string(key)
        input.double(now.timeIntervalSince1970)
        guard var output = perform(.blob, input), let bytes = output.optional({ $0.data() }) else { return nil }
        return bytes
    }

    /// Stores `bytes` under `key` until `expiresAt`; false when not written.
    @discardableResult
    public func storeBlob(_ bytes: [UInt8], for key: String, expiresAt: Date, now: Date = Date()) async -> Bool {
        var input = ByteWriter()
        input.data(bytes)
        input.string(key)
        input.double(expiresAt.timeIntervalSince1970)
        input.double(now.timeIntervalSince1970)
        var output = await performWriting(.storeBlob, input)
        return output?.bool() ?? false
    }
}
