import FoundationEssentials
import JSON
import Logging

/// What `getCached` finds: a preview's JSON, or a cached failure.
public enum CachedOutcome: Sendable, Equatable {
    case preview([UInt8])
    case failure(FetchError)
}

/// The two cache levels the engine uses: previews in memory (`MemoryCache`)
/// in front of the SQLite store (`CacheStore`), by `CacheKey`. A hit in the
/// store is copied into memory for the next use. A store without a
/// directory (`--no-cache`) keeps no previews: memory alone does that, and
/// its in-memory database is opened only for saved links.
///
/// With `--fleet`, Redis (`FleetCache`) is a third level shared by many
/// daemons: read when neither local level has a fresh entry (and copied
/// into them when it has a fresher one), written through after each fetch.
public final class PreviewCache: Sendable {
    public let memory: any MetadataCache
    public let store: CacheStore
    /// The fleet level, when the settings name one.
    public let fleet: FleetCache?
    /// False for a memory-only store: previews stay in `memory` only.
    let keepsPreviews: Bool
    /// Answers by level, origin requests, bytes read (`/metrics`).
    public let counters = CacheCounters()

    public init(memory: any MetadataCache = MemoryCache(), store: CacheStore, fleet: FleetCache? = nil) {
        self.memory = memory
        self.store = store
        self.fleet = fleet
        keepsPreviews = store.directory != nil
    }

    /// The entry for `key`, fresh or stale, from any level, each asked once:
    /// a fresh local one, else the fleet's when it is fresher than what is
    /// here. A fresh one counts as a hit of its level.
    func lookup(_ key: CacheKey, url: String, now: Date) -> CacheEntry? {
        var found = lookInMemory(key, url: url)
        if found.entry?.isFresh(at: now) != true { lookBehindMemory(&found, now: now, asStored: false) }
        if found.isFresh(at: now) { counters.hit(found.level) }
        return found.entry
    }

    /// Copies an entry read from the fleet into the local levels (not back to the fleet).
    func keepLocally(_ entry: CacheEntry, key: CacheKey, url: String, now: Date) {
        memory.store(entry, for: key.description)
        guard keepsPreviews else { return }
        let store = store
        Task.detached { await store.put(entry, key: key.description, originalURL: url, aliases: [], now: now) }
    }

    /// A row's entry. A row that does not decode counts as a miss, said at
    /// `info` with the damage, and is dropped (in the background, like a
    /// write) so that it is not read and refused again: the next fetch of the
    /// URL stores a good one.
    func decoded(_ row: StoredEntry, key: String) -> CacheEntry? {
        do throws(StoredDamage) {
            return try row.decodedEntry()
        } catch {
            store.logger.info("cache entry unreadable; dropped", metadata: [
                "key": "\(key)", "error": "\(error)",
            ])
            let store = store
            let stored = row.key
            Task.detached { await store.remove(stored) }
            return nil
        }
    }

    /// Drops the stored row that `key` finds (through an alias too): one
    /// that was served as its bytes and then did not decode. The memory and
    /// fleet levels keep theirs: they hold entries of their own.
    func dropStored(_ key: CacheKey) async {
        guard keepsPreviews, let row = store.entry(key.description) else { return }
        await store.remove(row.key)
    }

    /// `getCached`: what is stored for a key, fresh or stale, as served to
    /// a client that asked with a URL; the fleet is asked when neither local
    /// level has an entry. The common case — fresh, asked as it was stored —
    /// is the stored bytes, neither decoded nor encoded again.
    /// `found` is what memory gave (`lookInMemory`).
    func served(_ found: CacheLookup, now: Date) -> CachedOutcome? {
        let (key, url, name) = (found.key, found.url, found.key.description)
        var entry = found.entry
        var level = CacheCounters.Level.memory
        if entry == nil, keepsPreviews {
            counters.looked(.disk)
            if let row = store.entry(name) {
                level = .disk
                // Served as stored, not decoded; but only bytes that are one JSON
                // object go on the wire as they are. Others (a damaged row) are
                // decoded below, which says so and drops the row.
                if !row.isFailure, !row.mustRevalidate, row.expiresAt > now.timeIntervalSince1970,
                    row.originalURL == url, JSONObjectCheck.isObject(row.body)
                {
                    counters.hit(.disk)
                    return .preview(row.body)
                }
                entry = decoded(row, key: name)
            }
        }
        if entry == nil, let fleet {
            counters.looked(.fleet)
            if let shared = fleet.entry(for: name) {
                keepLocally(shared, key: key, url: url, now: now)
                entry = shared
                level = .fleet
            }
        }
        guard let entry else { return nil }
        let stale = !entry.isFresh(at: now)
        switch entry.value {
        case .failure(var error):
            if !stale { counters.hit(level) }
            error.fromCache = true
            error.stale = stale
            return .failure(error)
        case .metadata(var metadata):
            if !stale { counters.hit(level) }
            if !stale, metadata.originalURL == url, let json = entry.servedJSON { return .preview(json) }
            metadata.originalURL = url
            metadata.fromCache = true
            metadata.stale = stale ? true : nil
            return (try? metadata.jsonBytes()).map(CachedOutcome.preview)
        }
    }

    /// Stores `entry` in every level; `aliases` (redirect targets) answer with it too (locally).
    func put(_ entry: CacheEntry, key: CacheKey, originalURL: String, aliases: [CacheKey], now: Date) async {
        memory.store(entry, for: key.description)
        fleet?.put(entry, key: key.description, now: now)
        guard keepsPreviews else { return }
        await store.put(
            entry, key: key.description, originalURL: originalURL, aliases: aliases.map(\.description), now: now)
    }

    /// Forgets `key` in every level.
    func remove(_ key: CacheKey) async {
        memory.remove(key.description)
        fleet?.remove(key.description)
        if keepsPreviews { await store.remove(key.description) }
    }
}
