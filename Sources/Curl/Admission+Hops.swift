/// Submitting a hop that goes through a proxy: its target is checked first
/// (`HopCheck`, on a thread of its own), then the transfer is queued as
/// usual, carrying the check's refusal (or a cancel that came meanwhile) for
/// the loop that takes it to report.
extension Admission {
    /// Queues `transfer` for its current hop; false once stopping.
    func submitHop(_ transfer: Transfer) -> Bool {
        guard transfer.request.proxies.proxy(for: transfer.hopURL) != nil else { return submit(transfer) }
        let leaving = state.withLock { state in
            if state.stopping { return false }
            state.away[transfer.id] = false
            return true
        }
        guard leaving else { return false }
        HopCheck.start(url: transfer.hopURL, request: transfer.request) { refusal in
            let cancelled = self.state.withLock { $0.away.removeValue(forKey: transfer.id) ?? false }
            transfer.pendingFailure = cancelled ? .cancelled : refusal
            if !self.submit(transfer) {
                transfer.complete(.failure(CurlError(kind: .engineStopped, detail: "the transfer engine has stopped")))
            }
        }
        return true
    }
}
