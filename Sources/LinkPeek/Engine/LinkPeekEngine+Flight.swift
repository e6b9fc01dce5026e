// How fetches of one page share a flight (`Coalescer`): what decides that
// they share (`FlightKey`), what each caller wants besides the result
// (`FlightDemand`), what the shared work is handed (`FlightContext`), and
// how each caller then gets the answer it asked for.

extension LinkPeekEngine {
    /// The de-duplicate stage: this request waits on the one flight for its
    /// page (`Coalescer`), within its own deadline; the flight loads
    /// (`loadOnce`: the fleet's lock, then `load`).
    func sharedLoad(
        _ request: CheckedRequest, revalidating: CacheEntry?, progress: Bool,
        events: @escaping @Sendable (ProviderEvent) -> Void
    ) async -> Result<LoadedPreview, FetchError> {
        let (url, key, options) = (request.url, request.key, request.options)
        // Clamped: the library takes any Double, and a Duration from 1e20 s traps.
        let timeout = Self.clampedTimeout(options.timeout ?? settings.timeout)
        let waiter = coalescer.makeWaiterID()
        // Each caller keeps its own deadline, even while sharing a transfer
        // (watched with every other caller's: `DeadlineWatch`).
        // Safe: `timeout` is clamped to (0, 3600], so the product fits Int64.
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        deadlines.add(waiter, deadline: deadline) { [coalescer] in coalescer.leave(waiter: waiter, with: .timedOut) }
        defer { deadlines.remove(waiter) }
        let flight = FlightKey(page: key, fetchSubresources: options.fetchSubresources)
        let demand = FlightDemand(partials: options.reportsPartialResults, data: options.includeData, progress: progress)
        let outcome = await coalescer.run(key: flight, waiter: waiter, demand: demand, events: events) { flight in
            await self.loadOnce(
                url: url, key: key, options: options, revalidating: revalidating, timeout: timeout, flight: flight)
        }
        // This caller's deadline, or curl's for the transfer: whichever came first.
        if case .failure(let error) = outcome, error.kind == .timedOut {
            logger.info("fetch stopped", metadata: ["url": "\(url)", "reason": "timeout after \(timeout) s"])
        }
        return outcome
    }

    /// The subresources' bytes for a caller that asked for them, and none for
    /// one that did not. A caller that joined a shared flight after its
    /// subresources were fetched without bytes has them fetched again.
    func withData(_ metadata: LinkMetadata, options: FetchOptions) async -> LinkMetadata {
        var metadata = metadata
        guard options.includeData else {
            metadata.icon?.data = nil
            metadata.image?.data = nil
            return metadata
        }
        let missing = [metadata.icon, metadata.image].contains { $0?.dataLeftOut == true }
        guard options.fetchSubresources, missing else { return metadata }
        // No progress from this second fetch: the caller has seen the shared
        // one's `icon`/`image` stages, and stages never go backwards.
        return await loadSubresources(of: metadata, options: options, events: { _ in })
    }
}

/// What a flight's load hands every waiter: the preview, and the cache
/// entry stored (or found shared) for it, whose served JSON is the answer's
/// bytes too when the answer says the same (`FetchedPreview.json`).
struct LoadedPreview: Sendable {
    var metadata: LinkMetadata {
        get { box.metadata }
        set { box = MetadataBox(newValue) }
    }
    /// Nil when nothing was stored (a failure, `no-store`).
    var stored: CacheEntry?
    private var box: MetadataBox

    init(metadata: LinkMetadata, stored: CacheEntry?) {
        self.box = MetadataBox(metadata)
        self.stored = stored
    }
}

/// Which fetches share one flight: those that want the same work done, the
/// same page (its cache key) with or without its subresources. How each
/// caller wants the answer shown (partial results, bytes, thumbnails) is
/// not part of it: that is a `FlightDemand`.
struct FlightKey: Hashable, Sendable {
    let page: CacheKey
    let fetchSubresources: Bool
}

/// What one waiter wants from a shared fetch besides its result.
struct FlightDemand: Sendable, Equatable {
    /// Send `.partial` events (a run of the rules on the head).
    var partials = false
    /// Keep the subresources' bytes (`includeData`).
    var data = false
    /// Send `.progress` events. Without a waiter that wants them, only a
    /// change of stage is passed on.
    var progress = true

    /// Nothing besides the result (the identity of `union`).
    static let none = FlightDemand(partials: false, data: false, progress: false)

    func union(_ other: FlightDemand) -> FlightDemand {
        FlightDemand(partials: partials || other.partials, data: data || other.data, progress: progress || other.progress)
    }
}

/// What the shared work of a flight is handed: where its events go, and what
/// the flight's waiters want at the moment it asks.
struct FlightContext: Sendable {
    /// Sends an event to every current waiter (a partial only to those that want it).
    let send: @Sendable (ProviderEvent) -> Void
    /// The union of the current waiters' demands.
    let demand: @Sendable () -> FlightDemand
}
