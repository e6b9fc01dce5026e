import CacheABI
import FoundationEssentials

typealias StoredEntry = StoredRow

extension CacheStore {
    /// The row stored under `key`, or under the entry `key` is an alias of
    /// (a redirect's target); nil when there is none.
    func entry(_ key: String) -> StoredEntry? {
        var input = ByteWriter()
        input.string(key)
        guard var output = perform(.entry, input), let row = output.optional({ StoredRow(from: &$0) }) else {
            return nil
        }
        return row
    }

    /// Stores `entry` under `key` (replacing what was there), makes each of
    /// `aliases` answer with it, and refreshes a saved link's pinned
    /// metadata. Returns false when it was not written (writes off, failed).
    @discardableResult
    func put(_ entry: CacheEntry, key: String, originalURL: String, aliases: [String] = [], now: Date) async -> Bool {
        guard let body = entry.storedBody else { return false }
        var isFailure = false
        if case .failure = entry.value { isFailure = true }
        let row = StoredRow(
            key: key, originalURL: originalURL, isFailure: isFailure, body: body,
            expiresAt: entry.expiresAt.timeIntervalSince1970, mustRevalidate: entry.mustRevalidate,
            etag: entry.etag, lastModified: entry.lastModified)
        var input = ByteWriter()
        row.write(to: &input)
        input.strings(aliases)
        input.double(now.timeIntervalSince1970)
        var output = await performWriting(.put, input)
        return output?.bool() ?? false
    }

    /// Forgets the entry under `key` (a `no-store` answer replaces nothing with nothing).
    func remove(_ key: String) async {
        var input = ByteWriter()
        input.string(key)
        _ = await performWriting(.remove, input)
    }

    /// Records this daemon's cache use, for `linkpeek cache stats`.
    func report(_ usage: DaemonUsage) async {
        var input = ByteWriter()
        usage.write(to: &input)
        _ = await performWriting(.usage, input)
    }

    public func stats() -> CacheStats {
        guard var output = perform(.stats), let json = output.data(),
            let stats = try? JSONDecoder().decode(CacheStats.self, from: Data(json))
        else { return CacheStats(location: "memory", sizeLimit: sizeLimit) }
        return stats
    }

    /// Forgets every preview, failure and blob; saved links stay. Returns the entries removed.
    public func clear() async -> Int {
        var output = await performWriting(.clear)
        return output?.int() ?? 0
    }

    /// Removes expired blobs, then the least recently used entries and blobs
    /// (never a saved link's) until the pages in use are under 80 % of the
    /// limit, and gives the freed pages back to the file system. Returns
    /// how many rows went.
    @discardableResult
    public func prune() async -> Int {
        var output = await performWriting(.prune)
        return output?.int() ?? 0
    }
}
