import Dispatch
import Synchronization

/// The bounded queue between the senders (any thread) and the one writer
/// thread.
///
/// Policy, so that a client that writes many requests before reading any
/// answer never deadlocks the daemon:
/// - every message is queued whole, framed, and written whole by one thread;
/// - past `softLimit` queued bytes, messages sent as `.droppable` (progress
///   reports, partial results) are dropped and counted;
/// - `.required` messages (responses, progress begin/end) are always queued,
///   so each request is answered exactly once;
/// - past `hardLimit` queued bytes, the reader stops reading input
///   (`waitUntilBelowHardLimit`) until the writer has drained below it.
/// When the peer has gone (`EPIPE`), everything queued or sent later is
/// discarded quietly.
public struct OutputLimits: Sendable, Hashable {
    public var softLimit: Int
    public var hardLimit: Int

    public init(softLimit: Int = 8 * 1024 * 1024, hardLimit: Int = 256 * 1024 * 1024) {
        self.softLimit = softLimit
        self.hardLimit = hardLimit
    }
}

/// Whether a message may be dropped when the client is slow to read.
public enum SendPriority: Sendable {
    case required
    case droppable
}

final class OutputQueue: Sendable {
    struct State: Sendable {
        var chunks: [[UInt8]] = []
        /// Bytes queued or taken by the writer and not yet written.
        var pendingBytes = 0
        var dropped = 0
        var closing = false
        var broken = false
        var readerWaiting = false
        /// The output is being written, by the writer thread (a taken batch)
        /// or by a sender writing inline (see `claimInline`): nobody else may start.
        var writing = false
    }

    let limits: OutputLimits
    let state = Mutex(State())
    /// Signalled once per queued chunk and on close; the writer may wake to find nothing.
    let available = DispatchSemaphore(value: 0)
    /// Signalled when the reader may read again.
    let belowHardLimit = DispatchSemaphore(value: 0)

    init(limits: OutputLimits) {
        self.limits = limits
    }

    /// Queues a framed message; false when it was dropped.
    @discardableResult
    func enqueue(_ bytes: [UInt8], priority: SendPriority) -> Bool {
        let queued = state.withLock { state -> Bool in
            if state.closing || state.broken { return false }
            if priority == .droppable, state.pendingBytes + bytes.count > limits.softLimit {
                state.dropped += 1
                return false
            }
            state.chunks.append(bytes)
            state.pendingBytes += bytes.count
            return true
        }
        if queued { available.signal() }
        return queued
    }

    /// Blocks the reader while too much output waits. Called on the reader thread only.
    func waitUntilBelowHardLimit() {
        let mustWait = state.withLock { state -> Bool in
            guard !state.broken, state.pendingBytes > limits.hardLimit else { return false }
            state.readerWaiting = true
            return true
        }
        if mustWait { belowHardLimit.wait() }
    }

    /// Takes everything queued, blocking until there is something or the
    /// queue is closing. Returns nil when closing and drained, or broken.
    /// Called on the writer thread only.
    func takeAll() -> [[UInt8]]? {
        // Called again only once the previous batch is written.
        state.withLock { $0.writing = false }
        while true {
            available.wait()
            let taken = state.withLock { state -> [[UInt8]]?? in
                if state.broken { return .some(nil) }
                // An inline write is under way; its end signals again.
                if state.writing { return .none }
                if !state.chunks.isEmpty {
                    state.writing = true
                    defer { state.chunks.removeAll() }
                    return .some(state.chunks)
                }
                return state.closing ? .some(nil) : .none
            }
            if let taken { return taken }
        }
    }

    /// The writer wrote `count` bytes. Called on the writer thread only.
    func didWrite(_ count: Int) {
        let wakeReader = state.withLock { state -> Bool in
            state.pendingBytes -= count
            guard state.readerWaiting, state.pendingBytes <= limits.hardLimit else { return false }
            state.readerWaiting = false
            return true
        }
        if wakeReader { belowHardLimit.signal() }
    }

    /// The peer is gone: drop everything, and never block the reader again.
    func markBroken() {
        let wakeReader = state.withLock { state -> Bool in
            state.broken = true
            state.chunks.removeAll()
            state.pendingBytes = 0
            defer { state.readerWaiting = false }
            return state.readerWaiting
        }
        if wakeReader { belowHardLimit.signal() }
        // Found by an inline write, the writer thread must hear it too, and stop.
        available.signal()
    }

    /// No more messages: the writer drains what is queued, then stops.
    func close() {
        state.withLock { $0.closing = true }
        available.signal()
    }

    var droppedCount: Int { state.withLock { $0.dropped } }
    var pendingBytes: Int { state.withLock { $0.pendingBytes } }
}
