import Curl
import FoundationEssentials
import Logging

/// Politeness to hosts: a 429 or 503 with `Retry-After` holds its host
/// (`HostBackoff`), and fetches to a held host fail at once without touching
/// the network.
extension LinkPeekEngine {
    /// Fails with `rateLimited` when `url`'s host is held, unless `ignoring`
    /// (`cachePolicy: "reload"`: the user asked for the network). `image`:
    /// for an image fetch (the sentence says so).
    func checkBackoff(url: String, ignoring: Bool, image: Bool = false) throws(FetchError) {
        guard !ignoring, let host = HostBackoff.key(for: url), let seconds = backoff.remaining(host) else { return }
        cache.counters.held()
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

    private static func hostName(_ url: String) -> String? {
        URL(string: url)?.host
    }
}
