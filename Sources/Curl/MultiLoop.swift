internal import CCurl
import FoundationEssentials
import Synchronization

/// The curl thread's loop: takes commands from the inbox, starts queued
/// transfers within the limits, drives `curl_multi_perform`, reports
/// finished transfers and sleeps in `curl_multi_poll` until there is work.
///
/// - Important: lives on the curl thread only, from `run()` to its end.
final class MultiLoop {
    private let multi: UnsafeMutableRawPointer
    private let inbox: TransferEngine.Mailbox
    private let limits: TransferEngine.Limits

    private var queued: [Transfer] = []
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]
    private var activePerHost: [String: Int] = [:]

    init(multi: UnsafeMutableRawPointer, inbox: TransferEngine.Mailbox, limits: TransferEngine.Limits) {
        self.multi = multi
        self.inbox = inbox
        self.limits = limits
    }

    func run() {
        while true {
            let (commands, stopping) = inbox.state.withLock { inbox in
                defer { inbox.commands.removeAll(keepingCapacity: true) }
                return (inbox.commands, inbox.stopping)
            }
            for command in commands {
                switch command {
                case .add(let transfer): queued.append(transfer)
                case .cancel(let id): end(id: id, with: .failure(.cancelled))
                }
            }
            if stopping { break }
            expireQueued()
            startQueued()
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            drainFinished()
            // Finished transfers freed slots: start the queued ones now,
            // not after the poll below times out.
            if startQueued() { continue }
            curl_multi_poll(multi, nil, 0, pollMilliseconds, nil)
        }
        let stopped = CurlError(kind: .engineStopped, detail: "the transfer engine has stopped")
        for transfer in queued + Array(active.values) { end(id: transfer.id, with: .failure(stopped)) }
        curl_multi_cleanup(multi)
    }

    /// Wake at least once a second, sooner when a queued transfer's deadline comes.
    private var pollMilliseconds: Int32 {
        let soonest = queued.map(\.remainingMilliseconds).min() ?? 1000
        return Int32(min(1000, max(1, soonest)))
    }

    private func expireQueued() {
        let now = ContinuousClock.now
        for transfer in queued where transfer.deadline <= now {
            end(id: transfer.id, with: .failure(CurlError(kind: .timedOut, detail: "timed out while queued")))
        }
    }

    /// Starts queued transfers while the limits allow; true when any started.
    @discardableResult
    private func startQueued() -> Bool {
        var started = false
        var index = 0
        while index < queued.count, active.count < limits.total {
            let transfer = queued[index]
            guard activePerHost[transfer.hostKey, default: 0] < limits.perHost else {
                index += 1
                continue
            }
            queued.remove(at: index)
            start(transfer)
            started = true
        }
        return started
    }

    private func start(_ transfer: Transfer) {
        guard let easy = EasyHandle() else {
            transfer.complete(.failure(CurlError(kind: .network, detail: "curl_easy_init failed")))
            return
        }
        transfer.easy = easy
        let userdata = Unmanaged.passUnretained(transfer).toOpaque()
        if case .failure(let error) = easy.configure(for: transfer, userdata: userdata) {
            transfer.complete(.failure(error))
            transfer.easy = nil
            return
        }
        curl_multi_add_handle(multi, easy.raw)
        active[easy.raw] = transfer
        activePerHost[transfer.hostKey, default: 0] += 1
    }

    private func drainFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                let transfer = active[handle]
            else { continue }
            let code = message.pointee.data.result
            end(id: transfer.id, with: transfer.outcome(of: code))
        }
    }

    /// Removes a queued or active transfer and reports its outcome.
    private func end(id: UInt64, with outcome: Result<Void, CurlError>) {
        if let index = queued.firstIndex(where: { $0.id == id }) {
            queued.remove(at: index).complete(outcome)
            return
        }
        guard let (handle, transfer) = active.first(where: { $0.value.id == id }) else { return }
        curl_multi_remove_handle(multi, handle)
        active[handle] = nil
        activePerHost[transfer.hostKey, default: 1] -= 1
        if activePerHost[transfer.hostKey] == 0 { activePerHost[transfer.hostKey] = nil }
        transfer.complete(outcome)
        transfer.easy = nil
    }
}
