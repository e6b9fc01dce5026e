import Synchronization

/// A first-in, first-out queue from plain threads (the stdin reader, signal
/// handlers) to one consumer task: what an unbounded `AsyncStream` does, minus
/// a thread wake-up per element.
///
/// Why not `AsyncStream`: traced with a probe on the concurrency runtime,
/// each element it delivered to the server's loop was enqueued on the global
/// executor twice (once to resume the iterator, once to switch to the actor),
/// and on this two-core machine each of those woke a thread at 30–50 µs of
/// CPU. `next(isolation:)` parks the consumer with a continuation bound to
/// its own actor, so an element costs one job on that actor.
///
/// Threading contract: `yield` and `finish` from any thread; `next` from one
/// consumer at a time. It ignores task cancellation: the consumer stops when
/// the queue is finished.
final class EventInbox<Element: Sendable>: Sendable {
    private struct State: ~Copyable {
        var buffer: [Element] = []
        /// Elements before `head` are taken; the buffer is compacted when drained.
        var head = 0
        var waiter: CheckedContinuation<Element?, Never>?
        var finished = false

        mutating func take() -> Element? {
            guard head < buffer.count else { return nil }
            let element = buffer[head]
            head += 1
            if head == buffer.count {
                buffer.removeAll(keepingCapacity: buffer.capacity <= 1024)
                head = 0
            }
            return element
        }
    }

    private let state = Mutex(State())

    /// Adds `element` (dropped once finished), waking the consumer if it waits.
    func yield(_ element: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
            guard !state.finished else { return nil }
            if let waiter = state.waiter {
                // A waiting consumer means the buffer is empty: hand it over directly.
                state.waiter = nil
                return waiter
            }
            state.buffer.append(element)
            return nil
        }
        waiter?.resume(returning: element)
    }

    /// No more elements: the consumer gets what is buffered, then nil.
    func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<Element?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next element, waiting on the caller's actor; nil once finished and drained.
    func next(isolation: isolated (any Actor)? = #isolation) async -> Element? {
        if let element = state.withLock({ $0.take() }) { return element }
        return await withCheckedContinuation(isolation: isolation) { continuation in
            let ready = state.withLock { state -> Element?? in
                if let element = state.take() { return .some(element) }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
