import JSONRPC
import LinkPeekProtocol
import Synchronization

/// Work-done progress that counts items (`prefetch`): `begin` with 0 %,
/// `report`s with "done/total" and the percentage, at most one per
/// `ProgressReporter.interval` apart from the last, then `end`.
///
/// Threading contract: called from any thread; sends happen under the lock,
/// and nothing is sent after `end`.
final class CountProgress: Sendable {
    private struct State {
        var begun = false
        var closed = false
        var lastSent: ContinuousClock.Instant?
    }

    private let connection: Connection
    private let title: String
    private let token: ProgressToken?
    private let state = Mutex(State())

    init(connection: Connection, title: String, token: ProgressToken?) {
        self.connection = connection
        self.title = title
        self.token = token
    }

    func begin(total: Int) {
        guard let token else { return }
        state.withLock { state in
            guard !state.begun, !state.closed else { return }
            state.begun = true
            state.lastSent = .now
            var begin = WorkDoneProgressBegin(title: title, message: "0/\(total)")
            begin.percentage = 0
            send(token, .begin(begin), priority: .required)
        }
    }

    func report(done: Int, total: Int) {
        guard let token else { return }
        state.withLock { state in
            guard state.begun, !state.closed else { return }
            let now = ContinuousClock.now
            // The last item always goes out; the others when the interval has passed.
            if done < total, let last = state.lastSent, now - last < ProgressReporter.interval { return }
            state.lastSent = now
            var report = WorkDoneProgressReport(message: "\(done)/\(total)")
            report.percentage = total > 0 ? done * 100 / total : 100
            send(token, .report(report), priority: done == total ? .required : .droppable)
        }
    }

    /// Idempotent; sends `end` only after a `begin`.
    func end() {
        guard let token else { return }
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            guard state.begun else { return }
            send(token, .end(WorkDoneProgressEnd(message: "done")), priority: .required)
        }
    }

    private func send(_ token: ProgressToken, _ value: WorkDoneProgress, priority: SendPriority) {
        connection.sendProgress(token, value, priority: priority)
    }
}
