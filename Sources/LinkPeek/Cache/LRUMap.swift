/// A least-recently-used map bounded by the summed cost of its values: bytes
/// for the image cache's variants, one per entry for `MemoryCache`. A value
/// costlier than the whole capacity is not kept. Not thread-safe: its users
/// keep it in a `Mutex`.
struct LRUMap<Value> {
    private struct Node {
        var value: Value
        var cost: Int
        var stamp: UInt64
    }

    let capacity: Int
    private var nodes: [String: Node] = [:]
    /// Use order: stamp → key; stamps only grow, so the smallest is the oldest.
    private var order: [UInt64: String] = [:]
    private var clock: UInt64 = 0
    private var oldest: UInt64 = 0
    private(set) var totalCost = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { nodes.count }

    mutating func value(for key: String) -> Value? {
        guard var node = nodes[key] else { return nil }
        order[node.stamp] = nil
        clock += 1
        node.stamp = clock
        order[clock] = key
        nodes[key] = node
        return node.value
    }

    mutating func insert(_ value: Value, cost: Int, for key: String) {
        remove(key)
        guard cost <= capacity else { return }
        clock += 1
        nodes[key] = Node(value: value, cost: cost, stamp: clock)
        order[clock] = key
        totalCost += cost
        while totalCost > capacity, !nodes.isEmpty {
            // Skip stamps freed by later uses; amortised O(1).
            while order[oldest] == nil { oldest += 1 }
            if let victim = order[oldest] { remove(victim) }
        }
    }

    mutating func remove(_ key: String) {
        guard let node = nodes.removeValue(forKey: key) else { return }
        order[node.stamp] = nil
        totalCost -= node.cost
    }
}
