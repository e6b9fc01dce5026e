import Curl
import FoundationEssentials
import Logging

/// The admit stage: whether, and when, a request may go to its origin.
/// Every request the engine starts (page, redirects, oEmbed, icon, image)
/// passes it:
/// - politeness to hosts: a 429 or 503 with `Retry-After` holds its host
///   (`HostBackoff`), and requests to a held host fail at once without
///   touching the network (`checkBackoff`, `noteRateLimit`);
/// - the fleet's request rate per host (`admitted`: no-op without `--fleet`).
///
/// How many transfers run at once, in all and per host, is the transfer
/// engine's (`TransferEngine.Limits`).
struct AdmitStage: Sendable {
    /// Hosts that asked to be left alone.
    let backoff: HostBackoff
    /// The fleet, whose rate per host is shared by every daemon in it.
    let fleet: FleetCache?
    let counters: CacheCounters
    let logger: Logger

    /// Fails with `rateLimited` when `url`'s host is held, unless `ignoring`
    /// (`cachePolicy: "reload"`: the user asked for the network). `image`:
    /// for an image fetch (the sentence says so).
    func checkBackoff(url: String, ignoring: Bool, image: Bool = false) throws(FetchError) {
        guard !ignoring, let host = HostBackoff.key(for: url), let seconds = backoff.remaining(host) else { return }
        counters.held()
        logger.debug("not asked: host held for Retry-After", metadata: [
            "url": "\(url)", "host": "\(host)", "seconds left": "\(seconds)",
        ])
        throw .rateLimited(host: Self.hostName(url) ?? host, seconds: seconds, status: nil, image: image)
    }

    /// After a response: a 429 or 503 whose `Retry-After` asks for at least a
    /// second holds the host that answered, and the fetch fails `rateLimited`.
    /// Without the header (or asking for none) the status stays the answer.
    func noteRateLimit(_ head: ResponseHead, image: Bool = false) throws(FetchError) {
        guard head.status == 429 || head.status == 503,
            let seconds = RetryAfter.seconds(head["retry-after"], now: Date()), seconds > 0,
            let host = HostBackoff.key(for: head.url)
        else { return }
        backoff.hold(host, seconds: seconds)
        logger.info("host held for Retry-After", metadata: [
            "url": "\(head.url)", "host": "\(host)", "status": "\(head.status)", "seconds": "\(seconds)",
        ])
        throw .rateLimited(host: Self.hostName(head.url) ?? host, seconds: seconds, status: head.status, image: image)
    }

    /// Waits for `request`'s turn at its origin (the fleet's rate per host),
    /// the wait taken from its timeout; `.timedOut` when the turn would come too late.
    func admitted(_ request: TransferRequest) async throws(FetchError) -> TransferRequest {
        guard let fleet, let host = FleetCache.host(of: request.url) else { return request }
        switch fleet.admit(host: host, longest: request.timeout) {
        case .tooLong:
            throw .timedOut
        case .after(let seconds):
            guard seconds > 0 else { return request }
            do {
                try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            } catch {
                throw .cancelled
            }
            var request = request
            request.timeout = max(request.timeout - seconds, LinkPeekEngine.minimumTimeout)
            request.connectTimeout = min(request.connectTimeout, request.timeout)
            return request
        }
    }

    private static func hostName(_ url: String) -> String? {
        URL(string: url)?.host
    }
}
