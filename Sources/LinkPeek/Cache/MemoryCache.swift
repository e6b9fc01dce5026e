import Synchronization

/// A bounded in-memory cache that forgets the least recently used entry first.
public final class MemoryCache: MetadataCache {
    /// Each entry costs one, so the map's capacity is a count of entries.
    private let entries: Mutex<LRUMap<CacheEntry>>
    public let capacity: Int

    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
        entries = Mutex(LRUMap(capacity: self.capacity))
    }

    public func entry(for url: String) -> CacheEntry? {
        entries.withLock { $0.value(for: url) }
    }

    public func store(_ entry: CacheEntry, for url: String) {
        entries.withLock { $0.insert(entry, cost: 1, for: url) }
    }

    public func remove(_ key: String) {
        entries.withLock { $0.remove(key) }
    }

    public func removeAll() {
        entries.withLock { $0 = LRUMap(capacity: capacity) }
    }

    public var count: Int { entries.withLock { $0.count } }
}
