import Curl
import FoundationEssentials
import Logging

/// Record and replay (`Tape`): every request the engine makes — page, redirects,
/// icon, image — goes through `perform`, which serves it from the replay
/// tape, or runs it and records it, or just runs it.
extension LinkPeekEngine {
    func perform<C: TransferConsumer>(
        _ request: TransferRequest, consumer: sending C
    ) async throws(FetchError) -> TransferResult<C.Output> {
        let requestKey = Tape.requestKey(method: request.method, body: request.body?.bytes)
        if let replayTape {
            if let (entry, body) = replayTape.lookup(request.url, request: requestKey, logger: logger) {
                return Self.replay(entry, body: body, consumer: consumer)
            }
            guard settings.replayFallback else {
                let what = requestKey.map { "\(request.url) (\($0))" } ?? request.url
                throw .failed(.notRecorded, "\(what) is not on the replay tape, and replay does not use the network.")
            }
        }
        // The fleet's rate per host (no-op without `--fleet`).
        let request = try await admission.admitted(request)
        cache.counters.originRequest()
        guard let recordTape else {
            do {
                let result = try await transfers.perform(request, consumer: consumer)
                cache.counters.read(result.bytesRead)
                return result
            } catch { throw FetchError(error) }
        }
        let capture = BodyCapture()
        let result: TransferResult<C.Output>
        do {
            result = try await transfers.perform(request, consumer: RecordingConsumer(inner: consumer, capture: capture))
        } catch {
            throw FetchError(error)
        }
        if let head = result.head {
            let entry = Tape.Entry(
                url: request.url, request: requestKey, finalURL: head.url, status: head.status, headers: head.fields,
                redirects: result.redirects.map { Tape.Redirect(url: $0.url, status: $0.status) },
                body: "", bytesRead: result.bytesRead, truncated: result.truncated)
            recordTape.record(entry, body: capture.bytes, logger: logger)
        }
        return result
    }

    /// Plays a recorded response to `consumer` as the transfer engine would:
    /// the head, then the bytes read live, in one piece (so `bytesRead` comes
    /// out as recorded). Runs on the calling task; the consumer is called one
    /// call at a time, as always.
    static func replay<C: TransferConsumer>(_ entry: Tape.Entry, body: [UInt8], consumer: C) -> TransferResult<C.Output> {
        consumer.connecting()
        let head = ResponseHead(status: entry.status, url: entry.finalURL, fields: entry.headers)
        var stopped = consumer.responseStarted(head) == .stop
        var bytesRead = 0
        if !stopped, !body.isEmpty {
            bytesRead = body.count
            stopped = body.withUnsafeBytes { consumer.received($0) } == .stop
        }
        return TransferResult(
            head: head, output: consumer.finish(), redirects: entry.redirects.map { Hop(url: $0.url, status: $0.status) },
            bytesRead: bytesRead, truncated: entry.truncated, stoppedEarly: stopped)
    }
}

/// The body bytes a recorded transfer delivered.
///
/// - Important: appended to on the transfer's curl thread only, read after
///   the transfer has ended (its continuation orders the two).
final class BodyCapture: @unchecked Sendable {
    var bytes: [UInt8] = []
}

/// Passes everything to `inner`, keeping a copy of the body bytes for the tape.
final class RecordingConsumer<Inner: TransferConsumer>: TransferConsumer {
    let inner: Inner
    let capture: BodyCapture

    init(inner: Inner, capture: BodyCapture) {
        self.inner = inner
        self.capture = capture
    }

    func connecting() { inner.connecting() }
    func requestSent() { inner.requestSent() }
    func responseStarted(_ head: ResponseHead) -> TransferDecision { inner.responseStarted(head) }
    func received(_ bytes: UnsafeRawBufferPointer) -> TransferDecision {
        capture.bytes.append(contentsOf: bytes)
        return inner.received(bytes)
    }
    func finish() -> Inner.Output { inner.finish() }
}
