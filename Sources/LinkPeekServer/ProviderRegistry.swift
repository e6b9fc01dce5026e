import JSONRPC
import LinkPeekProtocol

/// The one-shot rule: which providers run (and for which request), and which
/// finished recently. A provider id is refused while it runs and while it is
/// among the `window` most recently finished ones; older ids are forgotten so
/// memory stays bounded in a long session.
///
/// A plain value owned by the `Server` actor.
struct ProviderRegistry {
    let window: Int
    private(set) var running: [ProviderID: RequestID] = [:]
    private var recent: Set<ProviderID> = []
    /// The recently finished ids in finishing order, as a ring buffer.
    private var ring: [ProviderID] = []
    private var oldest = 0

    init(window: Int = 10_000) {
        self.window = window
    }

    /// Marks `provider` running for `request`; false if it already started.
    mutating func start(_ provider: ProviderID, request: RequestID) -> Bool {
        guard running[provider] == nil, !recent.contains(provider) else { return false }
        running[provider] = request
        return true
    }

    /// Moves `provider` from running to recently finished.
    mutating func finish(_ provider: ProviderID) {
        guard running.removeValue(forKey: provider) != nil else { return }
        recent.insert(provider)
        if ring.count < window {
            ring.append(provider)
        } else {
            recent.remove(ring[oldest])
            ring[oldest] = provider
            oldest = (oldest + 1) % window
        }
    }
}

extension IntegerOrString {
    /// The provider id a request id stands for by default. An id kept as
    /// number text (`1e2`) stands for the string of that text.
    init(_ id: RequestID) {
        switch id {
        case .int(let value): self = .integer(value)
        case .string(let value), .number(let value): self = .string(value)
        }
    }
}

extension RequestID {
    init(_ value: IntegerOrString) {
        switch value {
        case .integer(let value): self = .int(value)
        case .string(let value): self = .string(value)
        }
    }
}
