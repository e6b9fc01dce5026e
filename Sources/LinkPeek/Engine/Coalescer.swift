import Synchronization

/// Lets fetches of the same key at the same time share one piece of work:
/// the pages' (`LinkPeekEngine.coalescer`) and the image engine's source
/// fetches (`ImageCache.sourceFlights`, through the plain `run(_:_:)`), so
/// that a `prefetch` and a hover wanting one image fetch it once.
///
/// Each caller (a "waiter") gets the shared result, or ends on its own when
/// its task is cancelled or it calls `leave` (its timeout); the shared work
/// is cancelled only when its last waiter is gone. Events from the work reach
/// every current waiter; one that joins late first gets the latest progress
/// (so its progress begins at the stage the work is in) and the latest
/// partial result, so it does not miss the head.
///
/// What only some waiters want (partial results, the subresources' bytes)
/// does not split the work: each waiter states its `FlightDemand`, and the
/// work asks for the union of the current waiters' demands when it gets to
/// the step that needs it.
final class Coalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Outcome = Result<Value, FetchError>
    typealias Work = @Sendable (_ flight: FlightContext) async -> Outcome

    /// Called when a caller joins work another started (when `notesJoin`),
    /// before it waits: the engine counts such joins (`CacheCounters`).
    private let onJoin: @Sendable () -> Void

    init(onJoin: @escaping @Sendable () -> Void = {}) {
        self.onJoin = onJoin
    }

    private struct Waiter {
        let continuation: CheckedContinuation<Outcome, Never>
        let events: @Sendable (ProviderEvent) -> Void
        let demand: FlightDemand
    }

    private final class Flight: Sendable {
        let task = Mutex<Task<Void, Never>?>(nil)
        /// How many current waiters want progress events (changed under the
        /// coalescer's lock, read without it).
        let progressListeners = Atomic<Int>(0)
        /// The stage of the last progress event, kept while nobody listens.
        let lastStage = Mutex<FetchStage?>(nil)
    }

    /// A class, changed in place under the coalescer's lock: a struct read
    /// out of the table for each event copied the last partial result.
    private final class FlightState {
        let flight: Flight
        var waiters: [UInt64: Waiter] = [:]
        var lastProgress: ProviderEvent?
        var lastPartial: LinkMetadata?

        init(flight: Flight) { self.flight = flight }
    }

    private struct State {
        var flights: [Key: FlightState] = [:]
        var owner: [UInt64: Key] = [:]
        var nextID: UInt64 = 1
    }

    private let state = Mutex(State())

    /// A new waiter id, to pass to `run` and `leave`.
    func makeWaiterID() -> UInt64 {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    /// How many waiters the work for `key` has now (0 when none runs): a
    /// state tests wait on before letting the work go on.
    func waiterCount(for key: Key) -> Int {
        state.withLock { $0.flights[key]?.waiters.count ?? 0 }
    }

    /// Joins the work for `key`, starting it when nobody runs it yet. A
    /// caller that joins work another started is told so through its
    /// `CacheTrace` (`joined`), when `notesJoin`.
    func run(
        key: Key, waiter id: UInt64, demand: FlightDemand = FlightDemand(), notesJoin: Bool = true,
        events: @escaping @Sendable (ProviderEvent) -> Void, work: @escaping Work
    ) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waiter = Waiter(continuation: continuation, events: events, demand: demand)
                let started = join(key: key, id: id, waiter: waiter, work: work)
                if !started, notesJoin {
                    CacheTrace.current?.noteJoined()
                    onJoin()
                }
                // A cancel that came before the join found nothing to end: end it now.
                if Task.isCancelled { leave(waiter: id, with: .cancelled) }
            }
        } onCancel: {
            leave(waiter: id, with: .cancelled)
        }
    }

    /// The outcome of `work` for `key`, run once for all who ask meanwhile:
    /// for callers with no events to follow and nothing to demand (a
    /// subresource: its join is not the caller's answer, so not noted).
    func run(_ key: Key, _ work: @escaping @Sendable () async -> Outcome) async -> Outcome {
        await run(
            key: key, waiter: makeWaiterID(), demand: .none, notesJoin: false, events: { _ in }, work: { _ in await work() })
    }

    /// Ends one waiter now with `error`; the work goes on for the others.
    func leave(waiter id: UInt64, with error: FetchError) {
        let (waiter, orphan) = state.withLock { state -> (Waiter?, Flight?) in
            guard let key = state.owner.removeValue(forKey: id),
                let waiter = state.flights[key]?.waiters.removeValue(forKey: id)
            else { return (nil, nil) }
            if waiter.demand.progress, let flight = state.flights[key]?.flight {
                flight.progressListeners.subtract(1, ordering: .relaxed)
            }
            guard let flight = state.flights[key], flight.waiters.isEmpty else { return (waiter, nil) }
            state.flights[key] = nil
            return (waiter, flight.flight)
        }
        waiter?.continuation.resume(returning: .failure(error))
        orphan?.task.withLock { $0 }?.cancel()
    }

    /// Whether this waiter started the work (else it joined the work in flight).
    @discardableResult
    private func join(key: Key, id: UInt64, waiter: Waiter, work: @escaping Work) -> Bool {
        let (flight, isNew, caughtUp) = state.withLock { state -> (Flight, Bool, [ProviderEvent]) in
            state.owner[id] = key
            if let existing = state.flights[key] {
                existing.waiters[id] = waiter
                if waiter.demand.progress { existing.flight.progressListeners.add(1, ordering: .relaxed) }
                let partial = existing.lastPartial.map { ProviderEvent.partial($0) }
                return (existing.flight, false, [existing.lastProgress, partial].compactMap { $0 })
            }
            let fresh = FlightState(flight: Flight())
            fresh.waiters[id] = waiter
            if waiter.demand.progress { fresh.flight.progressListeners.add(1, ordering: .relaxed) }
            state.flights[key] = fresh
            return (fresh.flight, true, [])
        }
        for event in caughtUp {
            if case .partial = event, !waiter.demand.partials { continue }
            waiter.events(event)
        }
        guard isNew else { return false }
        let context = FlightContext(
            send: { [weak self] event in self?.broadcast(event, key: key, flight: flight) },
            demand: { [weak self] in self?.demand(key: key, flight: flight) ?? FlightDemand() })
        let task = Task {
            let outcome = await work(context)
            self.finish(key: key, flight: flight, with: outcome)
        }
        flight.task.withLock { $0 = task }
        return true
    }

    /// The union of what the flight's current waiters want.
    private func demand(key: Key, flight: Flight) -> FlightDemand {
        state.withLock { state in
            guard let current = state.flights[key], current.flight === flight else { return FlightDemand() }
            return current.waiters.values.reduce(FlightDemand.none) { $0.union($1.demand) }
        }
    }

    private func broadcast(_ event: ProviderEvent, key: Key, flight: Flight) {
        // Progress nobody shows (a page reports every chunk it reads): only
        // a new stage goes on, so that a waiter joining later starts at it.
        if case .progress(let stage, _) = event, flight.progressListeners.load(ordering: .relaxed) == 0 {
            let known = flight.lastStage.withLock { last in
                defer { last = stage }
                return last == stage
            }
            if known { return }
        }
        let waiters = state.withLock { state -> [Waiter] in
            guard let current = state.flights[key], current.flight === flight else { return [] }
            switch event {
            case .partial(let metadata): current.lastPartial = metadata
            case .progress: current.lastProgress = event
            }
            return Array(current.waiters.values)
        }
        for waiter in waiters {
            if case .partial = event, !waiter.demand.partials { continue }
            waiter.events(event)
        }
    }

    private func finish(key: Key, flight: Flight, with outcome: Outcome) {
        let waiters = state.withLock { state -> [Waiter] in
            guard let current = state.flights[key], current.flight === flight else { return [] }
            state.flights[key] = nil
            for id in current.waiters.keys { state.owner[id] = nil }
            return Array(current.waiters.values)
        }
        for waiter in waiters { waiter.continuation.resume(returning: outcome) }
    }
}
