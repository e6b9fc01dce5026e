import Synchronization

/// A bounded in-memory cache that forgets the least recently used entry first.
public final class MemoryCache: MetadataCache {
    private struct Node {
        var entry: CacheEntry
        var stamp: UInt64
    }

    private struct State {
        var nodes: [String: Node] = [:]
        /// Use order: stamp → key. Stamps only grow, so the smallest is the oldest.
        var order: [UInt64: String] = [:]
        var clock: UInt64 = 0
        var oldest: UInt64 = 0
    }

    private let state = Mutex(State())
    public let capacity: Int

    public init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    public func entry(for url: String) -> CacheEntry? {
        state.withLock { state in
            guard var node = state.nodes[url] else { return nil }
            state.order[node.stamp] = nil
            state.clock += 1
            node.stamp = state.clock
            state.order[node.stamp] = url
            state.nodes[url] = node
            return node.entry
        }
    }

    public func store(_ entry: CacheEntry, for url: String) {
        state.withLock { state in
            if let old = state.nodes[url] { state.order[old.stamp] = nil }
            state.clock += 1
            state.nodes[url] = Node(entry: entry, stamp: state.clock)
            state.order[state.clock] = url
            while state.nodes.count > capacity {
                // Skip stamps freed by later uses; amortised O(1).
                while state.order[state.oldest] == nil { state.oldest += 1 }
                if let key = state.order.removeValue(forKey: state.oldest) { state.nodes[key] = nil }
            }
        }
    }

    public func remove(_ key: String) {
        state.withLock { state in
            if let old = state.nodes.removeValue(forKey: key) { state.order[old.stamp] = nil }
        }
    }

    public func removeAll() {
        state.withLock { $0 = State() }
    }

    public var count: Int { state.withLock { $0.nodes.count } }
}
