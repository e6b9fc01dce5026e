internal import CCurl
import FoundationEssentials
import Synchronization

/// One curl thread's loop: takes the transfers the shared admission handed
/// to it (and cancellations), drives `curl_multi_perform`, reports finished
/// transfers, gives their slots back, and sleeps in `curl_multi_poll` until
/// there is work.
///
/// - Important: lives on its curl thread only, from `run()` to its end; the
///   `CURLM*` and every `CURL*` it starts never leave that thread.
final class MultiLoop {
    private let index: Int
    private let multi: UnsafeMutableRawPointer
    private let admission: Admission

    private var active: [UnsafeMutableRawPointer: Transfer] = [:]
    /// Transfers ended (or never started) this turn, whose slots go back to the admission.
    private var ended: [(id: UInt64, hostKey: String)] = []
    /// Transfers that ran and ended this turn, reported to their callers
    /// only once their slots are back: a caller that starts its next
    /// request at once then finds this loop free, with the connection just
    /// kept, rather than another loop without one.
    private var outcomes: [(transfer: Transfer, outcome: Result<Void, CurlError>)] = []

    init(index: Int, admission: Admission) {
        self.index = index
        self.multi = admission.multi(index)
        self.admission = admission
    }

    func run() {
        var pollMilliseconds: Int32 = 1000
        while true {
            let (commands, stopping, expiry) = admission.take(loop: index)
            if stopping {
                let stopped = CurlError(kind: .engineStopped, detail: "the transfer engine has stopped")
                for transfer in expiry.expired { transfer.complete(.failure(stopped)) }
                for command in commands {
                    switch command {
                    case .add(let transfer), .dropQueued(let transfer): transfer.complete(.failure(stopped))
                    case .cancel: break
                    }
                }
                break
            }
            let timedOut = CurlError(kind: .timedOut, detail: "timed out while queued")
            for transfer in expiry.expired { transfer.complete(.failure(timedOut)) }
            pollMilliseconds = expiry.nextMilliseconds
            for command in commands {
                switch command {
                case .add(let transfer): start(transfer)
                case .cancel(let id): end(id: id, with: .failure(.cancelled))
                case .dropQueued(let transfer): transfer.complete(.failure(.cancelled))
                }
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            drainFinished()
            pollMilliseconds = min(pollMilliseconds, endOverdueTransfers())
            // Finished transfers freed slots: when queued ones came to this
            // loop, start them now, not after the poll below times out.
            if releaseEnded() { continue }
            curl_multi_poll(multi, nil, 0, pollMilliseconds, nil)
        }
        let stopped = CurlError(kind: .engineStopped, detail: "the transfer engine has stopped")
        for transfer in Array(active.values) { end(id: transfer.id, with: .failure(stopped)) }
        _ = releaseEnded()
        curl_multi_cleanup(multi)
    }

    /// Gives the ended transfers' slots back; true when queued ones came to this loop.
    private func releaseEnded() -> Bool {
        guard !ended.isEmpty else { return false }
        let cameHere = admission.release(ended, from: index)
        ended.removeAll(keepingCapacity: true)
        for (transfer, outcome) in outcomes { transfer.complete(outcome) }
        outcomes.removeAll(keepingCapacity: true)
        return cameHere
    }

    private func start(_ transfer: Transfer) {
        if let failure = transfer.pendingFailure {
            // Refused by its hop check: ended here, on a curl thread, like every transfer.
            transfer.pendingFailure = nil
            ended.append((transfer.id, transfer.hostKey))
            transfer.complete(.failure(failure))
            return
        }
        transfer.viaProxy = transfer.request.proxies.proxy(for: transfer.hopURL) != nil
        guard let easy = EasyHandle() else {
            ended.append((transfer.id, transfer.hostKey))
            transfer.complete(.failure(CurlError(kind: .network, detail: "curl_easy_init failed")))
            return
        }
        transfer.easy = easy
        let userdata = Unmanaged.passUnretained(transfer).toOpaque()
        let shared = admission.sharesConnections(transfer.request)
        let configured = easy.configure(
            for: transfer, userdata: userdata, share: shared ? admission.share : nil, isolated: !shared)
        if case .failure(let error) = configured {
            ended.append((transfer.id, transfer.hostKey))
            transfer.complete(.failure(error))
            transfer.easy = nil
            return
        }
        curl_multi_add_handle(multi, easy.raw)
        active[easy.raw] = transfer
    }

    private func drainFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                let transfer = active[handle]
            else { continue }
            let code = message.pointee.data.result
            if transfer.redirectPending {
                followRedirect(transfer, handle: handle)
                continue
            }
            end(id: transfer.id, with: transfer.outcome(of: code))
        }
    }

    /// The hop ended on a redirect that the engine follows itself: the
    /// transfer leaves this loop (its slot is freed) and goes back to the
    /// admission for the next hop, checked first when it goes through a proxy.
    private func followRedirect(_ transfer: Transfer, handle: UnsafeMutableRawPointer) {
        let next = transfer.redirectTarget
        transfer.redirectTarget = nil
        curl_multi_remove_handle(multi, handle)
        active[handle] = nil
        ended.append((transfer.id, transfer.hostKey))
        transfer.easy = nil
        transfer.redirectPending = false
        guard let next, !next.isEmpty else {
            return transfer.complete(.failure(CurlError(kind: .network, detail: "a redirect without a usable Location")))
        }
        guard transfer.redirects.count <= transfer.request.maxRedirects else {
            return transfer.complete(.failure(CurlError(
                kind: .tooManyRedirects, detail: "Maximum (\(transfer.request.maxRedirects)) redirects followed")))
        }
        // Only http and https, as curl's own redirects (CURLOPT_REDIR_PROTOCOLS_STR);
        // refused here, before the hop check would look the host up.
        let scheme = next.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https" else {
            return transfer.complete(.failure(CurlError(
                kind: .unsupportedProtocol, detail: "a redirect to a \(scheme) URL; only http and https are followed")))
        }
        transfer.hopURL = next
        // Each hop is sent as its own host's rule says (`HopRule`).
        if let rule = transfer.request.hopRule {
            transfer.request = rule.request(for: next, after: transfer.request, firstURL: transfer.firstURL)
        }
        if !admission.submitHop(transfer) {
            transfer.complete(.failure(CurlError(kind: .engineStopped, detail: "the transfer engine has stopped")))
        }
    }

    /// Ends the drains that ran past their time, and the settling transfers
    /// that did (both close their connections: a settling one stops as an
    /// early stop, with what its consumer has); returns the milliseconds
    /// until the next one may.
    private func endOverdueTransfers() -> Int32 {
        let now = ContinuousClock.now
        var next = Int32.max
        for transfer in active.values {
            if transfer.drainOverdue(at: now) {
                end(id: transfer.id, with: .success(()))
            } else if transfer.settleOverdue(at: now) {
                transfer.stoppedEarly = true
                end(id: transfer.id, with: .success(()))
            } else if let deadline = transfer.draining ? transfer.drainDeadline : transfer.settleDeadline {
                let left = deadline - now
                // Safe: both deadlines are at most a few seconds away (`Transfer.drainMilliseconds`, `settleMilliseconds`).
                let ms = Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
                next = min(next, max(1, ms + 1))
            }
        }
        return next
    }

    /// Removes an active transfer; its outcome is reported once its slot is back (`releaseEnded`).
    private func end(id: UInt64, with outcome: Result<Void, CurlError>) {
        guard let (handle, transfer) = active.first(where: { $0.value.id == id }) else { return }
        curl_multi_remove_handle(multi, handle)
        active[handle] = nil
        ended.append((transfer.id, transfer.hostKey))
        outcomes.append((transfer, outcome))
        transfer.easy = nil
    }
}
