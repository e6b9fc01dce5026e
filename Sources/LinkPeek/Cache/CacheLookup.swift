import FoundationEssentials
import JSON

/// What one request found in the cache, each level asked once at most:
/// memory (`PreviewCache.lookInMemory`, cheap enough for the caller's
/// executor), then the disk and the fleet (`lookBehindMemory`, blocking,
/// so never on the dispatcher). The value is carried from the cache stage
/// into the load path, which reads no level again: a stale entry found
/// here is the one revalidated.
struct CacheLookup: Sendable {
    /// The request's key, built once.
    let key: CacheKey
    /// The URL as asked (trimmed): a preview stored for it is served as stored.
    let url: String
    /// The entry found, fresh or stale; nil when no level asked has one.
    var entry: CacheEntry?
    /// The level `entry` (or `storedBytes`) came from.
    var level = CacheCounters.Level.memory
    /// A fresh row's body, taken as its bytes without decoding it (asked
    /// for as stored, and one JSON object: `JSONObjectCheck`).
    var storedBytes: [UInt8]?
    /// Whether the levels behind memory were asked too.
    var pastMemory = false

    /// Whether what was found is fresh at `now` (a row taken as its bytes is).
    func isFresh(at now: Date) -> Bool {
        storedBytes != nil || entry?.isFresh(at: now) == true
    }

    /// A fresh preview's JSON as `fetch` answers it (`fromCache`, this
    /// request's `originalURL`); nil for a failure, a stale entry or none.
    /// The stored bytes when they were stored for this URL, else encoded.
    func freshJSON(at now: Date) -> [UInt8]? {
        if let storedBytes { return storedBytes }
        guard let entry, entry.isFresh(at: now), case .metadata(var metadata) = entry.value else { return nil }
        if metadata.originalURL == url, let json = entry.servedJSON { return json }
        metadata.originalURL = url
        metadata.fromCache = true
        metadata.stale = nil
        return try? metadata.jsonBytes()
    }
}

extension PreviewCache {
    /// The memory level's entry for `key`: the first step of a request's lookup.
    /// Not `counted`: a look that is counted by the caller once it uses what it found.
    func lookInMemory(_ key: CacheKey, url: String, counted: Bool = true) -> CacheLookup {
        if counted { counters.looked(.memory) }
        return CacheLookup(key: key, url: url, entry: memory.entry(for: key.description))
    }

    /// The same, not counted, with the key's stored form made before (`key.description`).
    func lookInMemory(_ key: CacheKey, name: String, url: String) -> CacheLookup {
        CacheLookup(key: key, url: url, entry: memory.entry(for: name))
    }

    /// The levels behind memory, each asked once: the disk when memory had
    /// nothing, then the fleet when nothing fresh was found here, its entry
    /// taken when it is fresher (and copied into the local levels). With
    /// `asStored`, a fresh row stored for this URL is taken as its bytes,
    /// neither decoded nor copied into memory (a request that answers with
    /// JSON); any other row is decoded and kept in memory.
    ///
    /// Blocks on SQLite and Redis (each call bounded): callers run it off
    /// the dispatcher (`@concurrent`).
    func lookBehindMemory(_ lookup: inout CacheLookup, now: Date, asStored: Bool) {
        lookup.pastMemory = true
        let name = lookup.key.description
        if lookup.entry == nil, keepsPreviews {
            counters.looked(.disk)
            if let row = store.entry(name) {
                if asStored, !row.isFailure, !row.mustRevalidate, row.expiresAt > now.timeIntervalSince1970,
                    row.originalURL == lookup.url, JSONObjectCheck.isObject(row.body)
                {
                    lookup.storedBytes = row.body
                    lookup.level = .disk
                    return
                }
                if let entry = decoded(row, key: name) {
                    memory.store(entry, for: name)
                    lookup.entry = entry
                    lookup.level = .disk
                }
            }
        }
        if lookup.entry?.isFresh(at: now) == true { return }
        guard let fleet else { return }
        counters.looked(.fleet)
        guard let shared = fleet.entry(for: name), lookup.entry.map({ shared.expiresAt > $0.expiresAt }) ?? true
        else { return }
        keepLocally(shared, key: lookup.key, url: lookup.url, now: now)
        lookup.entry = shared
        lookup.level = .fleet
    }
}
