import Synchronization

/// Runs each added action when its deadline passes, unless it was removed
/// before: the callers' own deadlines while they wait on a shared flight
/// (`sharedLoad`). One sleeping task watches them all, armed for the
/// earliest deadline it knows of: a fetch that ends in time costs a
/// dictionary entry under a lock, with no task and no timer of its own, and
/// nothing wakes while nothing is due. (A timer task per fetch woke a pool
/// thread to start it, libdispatch's timer thread to arm it, and a pool
/// thread again to cancel it: most of the thread hand-offs of a fetch that
/// runs alone.)
///
/// Deadlines mostly come later than those before them (the same timeout
/// from a later start), so the sleeper is re-armed only when it wakes, at
/// most once per deadline it slept to; an action added with an earlier
/// deadline than the armed one arms a new sleeper and cancels the old.
final class DeadlineWatch: Sendable {
    typealias Instant = ContinuousClock.Instant

    private struct Entry {
        let deadline: Instant
        let action: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        /// When the current sleeper wakes, if one sleeps.
        var armed: Instant?
        var sleeper: Task<Void, Never>?
        /// Tells the current sleeper from ones replaced (cancelled) before they woke.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Runs `action` at `deadline` unless `remove(id)` comes first.
    func add(_ id: UInt64, deadline: Instant, action: @escaping @Sendable () -> Void) {
        let replaced = state.withLock { state -> Task<Void, Never>? in
            state.entries[id] = Entry(deadline: deadline, action: action)
            if let armed = state.armed, armed <= deadline { return nil }
            let old = state.sleeper
            arm(&state, at: deadline)
            return old
        }
        replaced?.cancel()
    }

    /// Withdraws the action added under `id` (done: nothing more to watch).
    func remove(_ id: UInt64) {
        state.withLock { _ = $0.entries.removeValue(forKey: id) }
    }

    /// How many actions wait (tests).
    var count: Int { state.withLock { $0.entries.count } }

    /// Whether a sleeper is armed (tests: none while nothing is watched after a wake).
    var isArmed: Bool { state.withLock { $0.armed != nil } }

    private func arm(_ state: inout State, at deadline: Instant) {
        state.generation &+= 1
        let generation = state.generation
        state.armed = deadline
        state.sleeper = Task.detached { [weak self] in
            // A cancel (a new, earlier deadline) ends the sleep early; `wake` then does nothing.
            try? await Task.sleep(until: deadline, clock: .continuous)
            self?.wake(generation)
        }
    }

    /// Runs the actions that are due and arms the next sleeper for the earliest left, if any.
    private func wake(_ generation: UInt64) {
        let now = ContinuousClock.now
        let due = state.withLock { state -> [Entry] in
            guard state.generation == generation else { return [] }
            var due: [Entry] = []
            var next: Instant?
            for (id, entry) in state.entries {
                if entry.deadline <= now {
                    due.append(entry)
                    state.entries[id] = nil
                } else if next.map({ entry.deadline < $0 }) ?? true {
                    next = entry.deadline
                }
            }
            state.armed = nil
            state.sleeper = nil
            if let next { arm(&state, at: next) }
            return due
        }
        // Oldest first, when a late wake finds several due.
        for entry in due.sorted(by: { $0.deadline < $1.deadline }) { entry.action() }
    }
}
