import Dispatch
import Synchronization
import Threading

/// What the connection reports to its handler.
public enum ConnectionEvent: Sendable {
    /// One framed body, decoded (framing errors arrive as `.invalid` with no id).
    case incoming(Incoming)
    /// The input ended (EOF or a read error); nothing follows.
    case inputClosed
}

/// A JSON-RPC connection over two file descriptors (stdin/stdout, or pipes
/// in tests).
///
/// Threading contract:
/// - input is read on one dedicated thread (never the cooperative pool), and
///   the handler is called on that thread, in input order; it must not block
///   for long, and must not block on output;
/// - `send` may be called from any thread; messages are framed in the input's
///   framing and written whole, in the order `send` returned, by one
///   dedicated writer thread;
/// - the output queue is bounded as described on `OutputLimits`.
public final class Connection: Sendable {
    let input: Int32
    let output: Int32
    let maxMessageSize: Int
    let queue: OutputQueue
    /// The input's framing, used for output; LSP until the first byte says otherwise.
    let framing = Mutex(Framing.lsp)
    let started = Mutex(false)
    /// Signalled when the writer thread has stopped (drained or broken).
    let writerDone = DispatchSemaphore(value: 0)

    public init(
        input: Int32,
        output: Int32,
        limits: OutputLimits = OutputLimits(),
        maxMessageSize: Int = MessageFramer.defaultMaxMessageSize
    ) {
        self.input = input
        self.output = output
        self.maxMessageSize = maxMessageSize
        self.queue = OutputQueue(limits: limits)
    }

    /// Starts the reader and writer threads. Call once.
    public func start(handler: @escaping @Sendable (ConnectionEvent) -> Void) {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        precondition(first, "Connection.start called twice")
        DetachedThread.start(name: "jsonrpc-reader") { [self] in readLoop(handler) }
        DetachedThread.start(name: "jsonrpc-writer") { [self] in writeLoop() }
    }

    /// Queues `payload` for writing; false when it was dropped (a droppable
    /// message over the soft limit, or the connection is closed).
    @discardableResult
    public func send(_ payload: Payload, priority: SendPriority = .required) -> Bool {
        let bytes = framing.withLock { $0 }.frame(payload.encoded())
        if writeInline(bytes) { return true }
        return queue.enqueue(bytes, priority: priority)
    }

    @discardableResult
    public func send(_ message: Message, priority: SendPriority = .required) -> Bool {
        send(.single(message), priority: priority)
    }

    /// Stops accepting messages and waits until what is queued is written,
    /// or the peer is gone, or `timeout` seconds pass (a client that never
    /// reads cannot hold the daemon forever). True when everything was written.
    public func close(timeout: Double = 5) async -> Bool {
        queue.close()
        let done = writerDone
        return await withCheckedContinuation { continuation in
            // The wait blocks a thread of its own: neither the cooperative
            // pool nor a global dispatch queue (on Linux the concurrency
            // runtime runs on those, so a few blocked waits could starve it).
            DetachedThread.start(name: "jsonrpc-close") {
                continuation.resume(returning: done.wait(timeout: .now() + timeout) == .success)
            }
        }
    }

    /// Droppable messages dropped so far because the client read too slowly.
    public var droppedCount: Int { queue.droppedCount }
}
