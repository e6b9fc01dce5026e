/// The one-shot rule of LinkPresentation's `LPMetadataProvider` ("provider
/// is one-shot and has already started"), in one place for the daemon and
/// for programs using the library: which providers run (and for whom), and
/// which finished recently. A provider id is refused while it runs and while
/// it is among the `window` most recently finished ones; older ids are
/// forgotten, so memory stays bounded in a long session.
///
/// A plain value: its owner serialises access (the daemon's `Server` actor).
public struct ProviderRegistry<ID: Hashable & Sendable, Owner: Sendable>: Sendable {
    /// How many finished ids are remembered by default.
    public static var defaultWindow: Int { 10_000 }

    public let window: Int
    /// The running providers, and whom each runs for (the daemon: the request id).
    public private(set) var running: [ID: Owner] = [:]
    private var recent: Set<ID> = []
    /// The recently finished ids in finishing order, as a ring buffer.
    private var ring: [ID] = []
    private var oldest = 0

    /// - Parameter window: finished ids remembered (at least 1).
    public init(window: Int = defaultWindow) {
        self.window = max(window, 1)
    }

    /// Marks `provider` running for `owner`; false (the caller answers
    /// `FetchError.providerReused`) if it already started.
    public mutating func start(_ provider: ID, for owner: Owner) -> Bool {
        guard running[provider] == nil, !recent.contains(provider) else { return false }
        running[provider] = owner
        return true
    }

    /// Moves `provider` from running to recently finished.
    public mutating func finish(_ provider: ID) {
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
