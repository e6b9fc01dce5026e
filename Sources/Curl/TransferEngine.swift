internal import CCurl
import Threading
import Synchronization

/// Runs HTTP transfers on libcurl's multi interface, on one dedicated thread.
///
/// The thread owns the `CURLM*` and every `CURL*`. Other threads only put
/// commands into a locked inbox and call `curl_multi_wakeup` (the one multi
/// call libcurl allows from any thread). Transfers beyond the total or
/// per-host limits wait in a queue, in order; their timeout runs from when
/// they were queued. Cancelling one transfer never disturbs the others.
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
        case add(Transfer)
        case cancel(UInt64)
    }

    struct Inbox {
        var commands: [Command] = []
        var stopping = false
        var nextID: UInt64 = 1
    }

    /// The inbox, shared by reference between callers and the curl thread.
    final class Mailbox: Sendable {
        let state = Mutex(Inbox())
    }

    let inbox = Mailbox()
    private let multi: MultiPointer

    public init(limits: Limits = Limits()) {
        Self.globalInit
        let multi = MultiPointer(curl_multi_init())
        self.multi = multi
        let inbox = self.inbox
        DetachedThread.start(name: "linkpeek.curl") {
            MultiLoop(multi: multi.raw, inbox: inbox, limits: limits).run()
        }
    }

    deinit {
        shutdown()
    }

    /// Runs one transfer, feeding its body to `consumer` on the curl thread.
    ///
    /// Cancelling the calling task removes the transfer at once and throws
    /// `CurlError.cancelled`.
    public func perform<Consumer: TransferConsumer>(
        _ request: TransferRequest,
        consumer: sending Consumer
    ) async throws(CurlError) -> TransferResult<Consumer.Output> {
        let id = inbox.state.withLock { inbox in
            defer { inbox.nextID += 1 }
            return inbox.nextID
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let transfer = Transfer(id: id, request: request, consumer: consumer) {
                    continuation.resume(returning: $0)
                }
                submit(.add(transfer), orFail: transfer)
            }
        } onCancel: {
            submit(.cancel(id), orFail: nil)
        }
        return try outcome.get()
    }

    /// Stops the loop: every transfer still queued or running ends with
    /// `engineStopped`. Later transfers fail at once.
    public func shutdown() {
        let wasRunning = inbox.state.withLock { inbox in
            defer { inbox.stopping = true }
            return !inbox.stopping
        }
        if wasRunning { curl_multi_wakeup(multi.raw) }
    }

    private func submit(_ command: Command, orFail transfer: Transfer?) {
        let accepted = inbox.state.withLock { inbox in
            if inbox.stopping { return false }
            inbox.commands.append(command)
            return true
        }
        if accepted {
            curl_multi_wakeup(multi.raw)
        } else {
            transfer?.complete(.failure(CurlError(kind: .engineStopped, detail: "the transfer engine has stopped")))
        }
    }

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
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
