import Synchronization

/// The bounds on work: at most `slots` requests that fetch or transform at
/// once, and at most `queue` more waiting in order for a slot. A request
/// that finds both full is refused at once (503 with `Retry-After`), so a
/// flood costs a counter, not memory. A request cancelled while waiting
/// (its client left) gives its place up.
final class AdmissionGate: Sendable {
    private struct State {
        var slots: Int
        var queue: Int
        var running = 0
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>

    init(slots: Int, queue: Int) {
        state = Mutex(State(slots: max(1, slots), queue: max(0, queue)))
    }

    /// New bounds (`SIGHUP`): more slots let waiters in now; fewer take
    /// effect as running requests end; a smaller queue keeps who waits.
    func resize(slots: Int, queue: Int) {
        let admitted: [CheckedContinuation<Bool, Never>] = state.withLock { state in
            state.slots = max(1, slots)
            state.queue = max(0, queue)
            var admitted: [CheckedContinuation<Bool, Never>] = []
            while state.running < state.slots, !state.waiting.isEmpty {
                state.running += 1
                admitted.append(state.waiting.removeFirst().continuation)
            }
            return admitted
        }
        for waiter in admitted { waiter.resume(returning: true) }
    }

    /// Requests running and waiting now.
    var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }

    /// Runs `body` in a slot, or answers nil at once when the slots and the queue are full.
    func run<T: Sendable>(_ body: () async -> T) async -> T? {
        guard await enter() else { return nil }
        defer { leave() }
        return await body()
    }

    private enum Entry { case admitted, refused, wait(UInt64) }

    private func enter() async -> Bool {
        let entry: Entry = state.withLock { state in
            if state.running < state.slots {
                state.running += 1
                return .admitted
            }
            guard state.waiting.count < state.queue else { return .refused }
            state.nextID &+= 1
            return .wait(state.nextID)
        }
        switch entry {
        case .admitted: return true
        case .refused: return false
        case .wait(let id):
            return await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let answer: Bool? = state.withLock { state in
                        // A slot may have freed since the check above.
                        if state.running < state.slots {
                            state.running += 1
                            return true
                        }
                        if Task.isCancelled { return false }
                        state.waiting.append((id, continuation))
                        return nil
                    }
                    if let answer { continuation.resume(returning: answer) }
                }
            } onCancel: {
                let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
                    guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.waiting.remove(at: index).continuation
                }
                waiter?.resume(returning: false)
            }
        }
    }

    /// Gives the slot to the first waiter, or frees it.
    private func leave() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            if state.waiting.isEmpty || state.running > state.slots {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst().continuation
        }
        next?.resume(returning: true)
    }
}
