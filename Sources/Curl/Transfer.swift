import FoundationEssentials
import Logging

/// One transfer's state on its curl thread: the request, the type-erased
/// consumer, and what the header and body callbacks learned so far.
///
/// - Important: created by `TransferEngine.perform` and then handed over to
///   the shared admission. While queued, only its constants (`id`,
///   `hostKey`, `deadline`) are read, under the admission's lock; then it
///   goes to one loop, to run or to be ended, and from then on only that
///   loop's curl thread touches it. That hand-over is why it may be
///   `@unchecked Sendable`.
final class Transfer: @unchecked Sendable {
    let id: UInt64
    /// The request of the hop running now: the first one, then what the
    /// request's `HopRule` says for each redirect (set between hops only).
    var request: TransferRequest
    /// The URL the transfer started at, whose origin alone gets credential headers.
    let firstURL: String
    /// The host the per-host limit counts against.
    let hostKey: String
    /// When the transfer fails with `timedOut`, counted from queueing.
    let deadline: ContinuousClock.Instant

    // The consumer, type-erased into closures (its curl thread only).
    let connecting: () -> Void
    let requestSent: () -> Void
    let responseStarted: (ResponseHead) -> TransferDecision
    let received: (UnsafeRawBufferPointer) -> TransferDecision
    /// Ends the transfer: calls the consumer's `finish()` and resumes the caller. Called exactly once.
    private var completion: ((Result<Summary, CurlError>) -> Void)?

    var easy: EasyHandle?

    // What the callbacks learned.
    var status = 0
    var fields: [String: String] = [:]
    var head: ResponseHead?
    var redirects: [Hop] = []
    var bytesRead = 0
    var truncated = false
    var stoppedEarly = false
    var refusedAddress: IPAddress?
    /// The body's content codings, undone here as the consumer reads (see
    /// `Transfer+Decoding`); set up at the first body bytes.
    var decoder: ContentDecoder?
    var decoderChosen = false
    /// Set when the body's coding is unknown or its bytes are not of it: the transfer ends with it.
    var decodingFailure: CurlError?
    /// Why the last bytes handed to the consumer ended the delivery.
    var deliveryEnd = DeliveryEnd.none
    /// The consumer was told the request is sent (once per transfer).
    var toldRequestSent = false
    /// Stopped, with its result given, but reading the small rest of the
    /// response to keep the connection (see `Transfer+Drain`).
    var draining = false
    var drainDeadline: ContinuousClock.Instant?
    /// When a transfer whose consumer said `settle` is ended with what it
    /// has (see `TransferDecision.settle`).
    var settleDeadline: ContinuousClock.Instant?

    // Hop by hop when a proxy is set (see `HopCheck`).
    /// The URL of the hop running now: the request's, then each redirect's
    /// when the engine follows redirects itself.
    var hopURL: String
    /// This hop's connection is to a proxy, which the user chose: the
    /// connect-time check does not judge it (the target was checked before).
    var viaProxy = false
    /// This hop ended on a redirect the engine follows itself.
    var redirectPending = false
    /// Where that redirect leads, resolved against the hop's URL.
    var redirectTarget: String?
    /// Set by the hop check: the error to end the transfer with when a loop takes it.
    var pendingFailure: CurlError?
    /// HTTPS, so possibly HTTP/2: kept on the loop that already has this host.
    var mayMultiplex: Bool { hopURL.lowercased().hasPrefix("https:") }
    /// True when redirects are followed by the engine, not by curl.
    var followsRedirectsItself: Bool { !request.proxies.isEmpty || request.hopRule != nil }

    /// What the engine reports besides the consumer's output.
    struct Summary {
        var head: ResponseHead?
        var redirects: [Hop]
        var bytesRead: Int
        var truncated: Bool
        var stoppedEarly: Bool
    }

    init<C: TransferConsumer>(
        id: UInt64,
        request: TransferRequest,
        consumer: C,
        resume: @escaping (Result<TransferResult<C.Output>, CurlError>) -> Void
    ) {
        self.id = id
        self.request = request
        self.firstURL = request.url
        self.hopURL = request.url
        self.hostKey = URL(string: request.url)?.host?.lowercased() ?? ""
        self.deadline = .now + .milliseconds(TransferRequest.milliseconds(request.timeout))
        connecting = { consumer.connecting() }
        requestSent = { consumer.requestSent() }
        responseStarted = { consumer.responseStarted($0) }
        received = { consumer.received($0) }
        completion = { outcome in
            let output = consumer.finish()
            resume(outcome.map {
                TransferResult(
                    head: $0.head, output: output, redirects: $0.redirects, bytesRead: $0.bytesRead,
                    truncated: $0.truncated, stoppedEarly: $0.stoppedEarly)
            })
        }
    }

    /// Finishes the transfer once; later calls do nothing.
    func complete(_ outcome: Result<Void, CurlError>) {
        guard let completion else { return }
        self.completion = nil
        let summary = Summary(
            head: head, redirects: redirects, bytesRead: bytesRead, truncated: truncated,
            stoppedEarly: stoppedEarly)
        logStop(outcome)
        completion(outcome.map { summary })
    }

    /// Milliseconds left before the deadline (at least 1, so curl is never told "no timeout").
    var remainingMilliseconds: Int {
        let left = deadline - .now
        let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000
        return max(1, Int(ms))
    }

    /// Milliseconds this hop may take: what is left, and no more than its
    /// own request's timeout (a `HopRule`'s for a redirect's host).
    var hopMilliseconds: Int {
        min(remainingMilliseconds, TransferRequest.milliseconds(request.timeout))
    }
}

extension Transfer {
    /// Says why a transfer ended before its response did: its consumer had
    /// what it needed (a page's head), the byte cap, the timeout, a cancel.
    func logStop(_ outcome: Result<Void, CurlError>) {
        let (level, reason): (Logger.Level, String)
        switch outcome {
        case .success where truncated: (level, reason) = (.info, "byte cap of \(request.maxBytes) bytes")
        case .success where stoppedEarly: (level, reason) = (.debug, "consumer done (head complete)")
        case .success: return
        case .failure(let error) where error.kind == .timedOut: (level, reason) = (.info, "timeout: \(error.detail)")
        case .failure(let error) where error.kind == .cancelled: (level, reason) = (.debug, "cancelled")
        case .failure: return
        }
        request.logger.log(level: level, "transfer stopped", metadata: [
            "url": "\(hopURL)", "reason": "\(reason)", "bytes": "\(bytesRead)",
        ])
    }
}
