import Dispatch
import JSONRPC
import LinkPeek
import LinkPeekProtocol
import Synchronization

/// Turns one fetch's `ProviderEvent`s into `$/progress` notifications.
///
/// - Work-done (`workDoneToken`): `begin` on the first progress event, then
///   `report`s merged so that at most one goes out per `interval` (the latest
///   stage and bytes win; a pending one is flushed when the interval ends),
///   then `end` from `end(message:)`, preceded by a `begin` of its own when
///   no event came (a cache answer, a flight that finished before the
///   request joined it): a token always gets `begin` and `end`.
/// - Partial result (`partialResultToken`): the first `.partial` is sent once.
///
/// Threading contract: `handle` is called from any thread (the service's),
/// `end` from the server. Every send happens under the lock, so once `end`
/// has returned nothing more is sent on either token, and the `end` is
/// queued before the response the server sends next.
final class ProgressReporter: Sendable {
    static let interval: Duration = .milliseconds(50)

    private struct State {
        var begun = false
        var closed = false
        var partialSent = false
        var stage: FetchStage?
        var bytes = 0
        var lastSent: ContinuousClock.Instant?
        var pending = false
        var flushScheduled = false
    }

    private let connection: Connection
    private let title: String
    private let workDoneToken: ProgressToken?
    private let partialResultToken: ProgressToken?
    private let state = Mutex(State())

    init(connection: Connection, title: String, workDoneToken: ProgressToken?, partialResultToken: ProgressToken?) {
        self.connection = connection
        self.title = title
        self.workDoneToken = workDoneToken
        self.partialResultToken = partialResultToken
    }

    func handle(_ event: ProviderEvent) {
        switch event {
        case .progress(let stage, let bytes): progress(stage: stage, bytes: bytes)
        case .partial(let metadata): partial(metadata)
        }
    }

    private func progress(stage: FetchStage, bytes: Int) {
        guard let token = workDoneToken else { return }
        let flushAfter = state.withLock { state -> Duration? in
            guard !state.closed else { return nil }
            state.stage = stage
            state.bytes = bytes
            let now = ContinuousClock.now
            if !state.begun {
                state.begun = true
                state.lastSent = now
                let begin = WorkDoneProgressBegin(title: title, message: stage.rawValue, stage: stage.rawValue, bytes: bytes)
                send(token, .begin(begin), priority: .required)
                return nil
            }
            if let lastSent = state.lastSent, now - lastSent < Self.interval {
                state.pending = true
                guard !state.flushScheduled else { return nil }
                state.flushScheduled = true
                return Self.interval - (now - lastSent)
            }
            state.lastSent = now
            state.pending = false
            send(token, .report(WorkDoneProgressReport(message: stage.rawValue, stage: stage.rawValue, bytes: bytes)), priority: .droppable)
            return nil
        }
        if let flushAfter {
            let nanoseconds = flushAfter.components.attoseconds / 1_000_000_000 + flushAfter.components.seconds * 1_000_000_000
            // Safe: `flushAfter` is below `interval` (50 ms), far inside Int.
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(nanoseconds))) { [self] in flush() }
        }
    }

    /// Sends the report merged during the last interval, unless ended meanwhile.
    private func flush() {
        guard let token = workDoneToken else { return }
        state.withLock { state in
            state.flushScheduled = false
            guard !state.closed, state.pending, let stage = state.stage else { return }
            state.pending = false
            state.lastSent = ContinuousClock.now
            send(token, .report(WorkDoneProgressReport(message: stage.rawValue, stage: stage.rawValue, bytes: state.bytes)), priority: .droppable)
        }
    }

    private func partial(_ metadata: LinkMetadata) {
        guard let token = partialResultToken else { return }
        state.withLock { state in
            guard !state.closed, !state.partialSent else { return }
            state.partialSent = true
            connection.sendProgress(token, metadata, priority: .droppable)
        }
    }

    /// Closes both tokens: sends `end`, and `begin` first if none went out
    /// yet. Idempotent.
    func end(message: String) {
        guard let token = workDoneToken else {
            state.withLock { $0.closed = true }
            return
        }
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            if !state.begun {
                state.begun = true
                send(token, .begin(WorkDoneProgressBegin(title: title, bytes: state.bytes)), priority: .required)
            }
            send(token, .end(WorkDoneProgressEnd(message: message, stage: state.stage?.rawValue, bytes: state.bytes)), priority: .required)
        }
    }

    private func send(_ token: ProgressToken, _ value: WorkDoneProgress, priority: SendPriority) {
        connection.sendProgress(token, value, priority: priority)
    }
}
