internal import CCurl
import Dispatch
import Threading
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs HTTP transfers on libcurl's multi interface, on a few dedicated
/// threads: one multi loop per core (at most four), each with its own
/// `CURLM*`, so parsing the pages the transfers feed does not queue behind
/// one thread.
///
/// Each loop's thread owns its `CURLM*` and every `CURL*` it runs. Other
/// threads only go through the one shared admission (a lock) and call
/// `curl_multi_wakeup` (the one multi call libcurl allows from any thread).
/// The total and per-host limits count across all loops; transfers beyond
/// them wait in one queue, in order, and go to the least-busy loop when a
/// slot frees; their timeout runs from when they were queued. Cancelling one
/// transfer never disturbs the others.
public final class TransferEngine: Sendable {
    /// Limits on transfers running at once.
    public struct Limits: Sendable {
        public var total: Int
        public var perHost: Int
        public init(total: Int = 64, perHost: Int = 6) {
            self.total = max(1, total)
            self.perHost = max(1, perHost)
        }
    }

    enum Command {
        /// Start this admitted transfer.
        case add(Transfer)
        /// Cancel this admitted transfer.
        case cancel(UInt64)
        /// End this transfer, cancelled while it was still queued.
        case dropQueued(Transfer)
    }

    private let admission: Admission
    /// The loops' threads, joined by `shutdown`.
    private let loops: [JoinableThread]

    public init(limits: Limits = Limits()) {
        Self.globalInit
        let multis = (0..<Self.loopCount).map { _ in MultiPointer(curl_multi_init()) }
        let admission = Admission(multis: multis, limits: limits, share: CurlShare())
        self.admission = admission
        loops = multis.indices.map { index in
            JoinableThread(name: multis.count == 1 ? "linkpeek.curl" : "linkpeek.curl\(index)") {
                MultiLoop(index: index, admission: admission).run()
            }
        }
    }

    deinit {
        // Not waited for: the last reference may go on a curl thread.
        _ = admission.stop()
    }

    /// Runs one transfer, feeding its body to `consumer` on a curl thread.
    ///
    /// Cancelling the calling task removes the transfer at once and throws
    /// `CurlError.cancelled`.
    public func perform<Consumer: TransferConsumer>(
        _ request: TransferRequest,
        consumer: sending Consumer
    ) async throws(CurlError) -> TransferResult<Consumer.Output> {
        let id = admission.nextID()
        let admission = self.admission
        // A cancel can come before the transfer is submitted (the task was
        // cancelled already, or is cancelled concurrently); the admission
        // would not know the id yet. Whichever of the two comes second acts.
        let race = SubmitRace()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let transfer = Transfer(id: id, request: request, consumer: consumer) {
                    continuation.resume(returning: $0)
                }
                if race.markSubmitted() {
                    transfer.complete(.failure(.cancelled))
                } else if !admission.submitHop(transfer) {
                    transfer.complete(.failure(CurlError(kind: .engineStopped, detail: "the transfer engine has stopped")))
                }
            }
        } onCancel: {
            if race.markCancelled() { admission.cancel(id) }
        }
        return try outcome.get()
    }

    /// Stops the loops: every transfer still queued or running ends with
    /// `engineStopped`. Later transfers fail at once. Waits (two seconds at
    /// most for a loop still running) until every loop's thread has ended:
    /// its connections cleaned up and its thread-exit destructors run
    /// (OpenSSL's per-thread state), so that a process exiting after it does
    /// not tear libcurl's TLS library down (its exit handlers) under a curl
    /// thread still closing a connection or freeing that state.
    /// Call it from a thread that is not a curl thread.
    public func shutdown() {
        guard admission.stop() else { return }
        let deadline = DispatchTime.now() + .seconds(2)
        for loop in loops where !loop.join(until: deadline) {
            break
        }
    }

    /// One loop per online core, at least one and at most four.
    private static let loopCount: Int = {
        min(4, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }()

    /// libcurl's global initialisation, once, on a thread of its own that
    /// has ended (joined) before the first engine starts. The TLS library
    /// keeps state per thread from it (OpenSSL's), freed when that thread
    /// ends: made on a pool thread, it was freed whenever that thread ended
    /// (idle, seconds later), which may be while the process exits and
    /// OpenSSL's exit handlers free the same memory.
    private static let globalInit: Void = {
        let initializing = JoinableThread(name: "linkpeek.curlini") { curl_global_init(Int(CURL_GLOBAL_ALL)) }
        _ = initializing.join(until: .distantFuture)
    }()
}

/// The multi handle pointer, shared only for `curl_multi_wakeup`, which
/// libcurl documents as callable from any thread.
struct MultiPointer: @unchecked Sendable {
    let raw: UnsafeMutableRawPointer
    init(_ raw: UnsafeMutableRawPointer?) {
        guard let raw else { fatalError("curl_multi_init failed: out of memory") }
        self.raw = raw
    }
}

/// Orders a transfer's submission against its cancellation.
final class SubmitRace: Sendable {
    private let state = Mutex((submitted: false, cancelled: false))

    /// Records the submission; true when a cancel came first (do not submit).
    func markSubmitted() -> Bool {
        state.withLock { state in
            state.submitted = true
            return state.cancelled
        }
    }

    /// Records the cancel; true when the transfer was submitted already (cancel it there).
    func markCancelled() -> Bool {
        state.withLock { state in
            state.cancelled = true
            return state.submitted
        }
    }
}
