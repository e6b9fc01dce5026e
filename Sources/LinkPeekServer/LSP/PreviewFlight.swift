import LinkPeek
import Synchronization

/// One background fetch of a URL for hovers (and prefetch), shared by every
/// hover of that URL and owned by the server, not by any request: a hover
/// waits on it for at most its budget, and cancelling a hover ends only
/// that wait, never the fetch (another hover, another client's editor
/// window, or the cache, still wants its result).
///
/// It keeps the latest partial result, so a hover that runs out of budget
/// can show the title already known, and forwards progress to the hovers
/// listening (for their `workDoneToken`).
///
/// Threading contract: every method may be called from any thread.
final class PreviewFlight: Sendable {
    typealias Outcome = Result<LinkMetadata, FetchError>

    private struct State {
        var partial: LinkMetadata?
        var outcome: Outcome?
        var cardImage: CardImage?
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var listeners: [UInt64: @Sendable (ProviderEvent) -> Void] = [:]
        /// Waits under way, and those released (budget over, or cancelled)
        /// before they registered: a release after a wait ended is forgotten.
        var active: Set<UInt64> = []
        var released: Set<UInt64> = []
        var nextID: UInt64 = 0
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())
    /// Started by prefetch (counted against its concurrency).
    let isPrefetch: Bool

    init(isPrefetch: Bool = false) {
        self.isPrefetch = isPrefetch
    }

    /// What is known now: the outcome when done, else the latest partial.
    var snapshot: (outcome: Outcome?, partial: LinkMetadata?) {
        state.withLock { ($0.outcome, $0.partial) }
    }

    /// The card's thumbnail, made after the fetch and before `finish`.
    var cardImage: CardImage? {
        get { state.withLock { $0.cardImage } }
        set { state.withLock { $0.cardImage = newValue } }
    }

    /// Keeps the task running the fetch, so that the session's end can cancel it.
    func attach(_ task: Task<Void, Never>) {
        state.withLock { $0.task = task }
    }

    func cancel() {
        state.withLock { $0.task }?.cancel()
    }

    /// The fetch's events: keeps partials, forwards everything to the listeners.
    func handle(_ event: ProviderEvent) {
        let listeners = state.withLock { state -> [@Sendable (ProviderEvent) -> Void] in
            if case .partial(let metadata) = event { state.partial = metadata }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener(event) }
    }

    func finish(_ outcome: Outcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.outcome = outcome
            state.listeners = [:]
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// One caller's place in the flight, from `join` to the end of its `wait`.
    struct Ticket: Sendable {
        fileprivate let id: UInt64
    }

    /// Joins the flight: `listener` gets every event the flight sends from
    /// the moment this returns (it is registered here, not in `wait`, so a
    /// caller that joins and then suspends misses nothing sent meanwhile).
    /// Every `join` must be followed by a `wait` on its ticket, which ends
    /// the listening.
    func join(listener: (@Sendable (ProviderEvent) -> Void)?) -> Ticket {
        state.withLock { state -> Ticket in
            state.nextID += 1
            state.active.insert(state.nextID)
            if let listener, state.outcome == nil { state.listeners[state.nextID] = listener }
            return Ticket(id: state.nextID)
        }
    }

    /// How many waits are parked, for tests that must act only once a
    /// waiter is blocked.
    var parkedWaits: Int {
        state.withLock { $0.waiters.count }
    }

    /// Waits until the fetch is done, `budget` has passed, or the calling
    /// task is cancelled, whichever comes first; the ticket's listener gets
    /// the fetch's events meanwhile, and none after.
    func wait(_ ticket: Ticket, atMost budget: Duration) async {
        let id = ticket.id
        defer {
            state.withLock { state in
                state.listeners[id] = nil
                state.released.remove(id)
                state.active.remove(id)
            }
        }
        let timer = Task { [weak self] in
            // A cancelled timer (the wait ended first) releases nothing.
            guard (try? await Task.sleep(for: budget)) != nil else { return }
            self?.release(id)
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    guard state.outcome == nil, !state.released.contains(id) else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            release(id)
        }
    }

    /// Ends wait `id` now; remembered if that wait has not registered yet
    /// (a budget of zero, or a cancel that came first).
    private func release(_ id: UInt64) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                if state.active.contains(id) { state.released.insert(id) }
                return nil as CheckedContinuation<Void, Never>?
            }
            return waiter
        }
        waiter?.resume()
    }
}
