import Synchronization

/// Lets concurrent requests for the same key share one piece of work: the
/// image engine's source fetches (Kingfisher dedupes its downloads the same
/// way), so that a `prefetch` and a hover wanting one image fetch it once.
///
/// A waiter whose task is cancelled stops waiting at once, with
/// `cancelled`; the work goes on for the others and is cancelled when its
/// last waiter has gone (and a later caller then starts afresh).
final class SharedFlights<Value: Sendable>: Sendable {
    typealias Outcome = Result<Value, FetchError>
    typealias Continuation = CheckedContinuation<Outcome, Never>

    private final class Flight: Sendable {
        struct State {
            var task: Task<Void, Never>?
            var outcome: Outcome?
            /// Registered waiters, by id.
            var waiters: [UInt64: Continuation] = [:]
            /// Waiters that joined and have not left (registered or about to be).
            var active = 0
            /// Waiters cancelled before they registered.
            var cancelledEarly: Set<UInt64> = []
        }
        let state = Mutex(State())
    }

    private let state = Mutex((flights: [String: Flight](), nextID: UInt64(0)))

    /// The outcome of `work` for `key`, run once for all who ask meanwhile.
    func run(_ key: String, _ work: @escaping @Sendable () async -> Outcome) async -> Outcome {
        let (id, flight, isNew) = state.withLock { state -> (UInt64, Flight, Bool) in
            state.nextID += 1
            if let flight = state.flights[key] {
                flight.state.withLock { $0.active += 1 }
                return (state.nextID, flight, false)
            }
            let flight = Flight()
            flight.state.withLock { $0.active = 1 }
            state.flights[key] = flight
            return (state.nextID, flight, true)
        }
        if isNew {
            let task = Task { self.finish(key, flight, await work()) }
            flight.state.withLock { $0.task = task }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Continuation) in
                let ready = flight.state.withLock { state -> Outcome? in
                    if let outcome = state.outcome { return outcome }
                    if state.cancelledEarly.remove(id) != nil { return .failure(.cancelled) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            // The table's lock, then the flight's (the order `run` takes them
            // in): a caller cannot join a flight that is being given up.
            let (waiter, orphaned) = state.withLock { table -> (Continuation?, Task<Void, Never>?) in
                flight.state.withLock { state in
                    guard state.outcome == nil else { return (nil, nil) }
                    let waiter = state.waiters.removeValue(forKey: id)
                    if waiter == nil { state.cancelledEarly.insert(id) }
                    state.active -= 1
                    guard state.active == 0 else { return (waiter, nil) }
                    // Nobody waits any more: a later caller starts afresh.
                    if table.flights[key] === flight { table.flights[key] = nil }
                    return (waiter, state.task)
                }
            }
            waiter?.resume(returning: .failure(.cancelled))
            orphaned?.cancel()
        }
    }

    private func finish(_ key: String, _ flight: Flight, _ outcome: Outcome) {
        state.withLock { if $0.flights[key] === flight { $0.flights[key] = nil } }
        let waiters = flight.state.withLock { state -> [Continuation] in
            state.outcome = outcome
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}
