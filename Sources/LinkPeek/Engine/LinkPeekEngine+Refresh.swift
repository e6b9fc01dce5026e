import Curl
import Logging

/// Meta refresh redirects (`MetaRefresh`): a page that only sends the reader
/// on is followed like an HTTP redirect — through the address policy (each
/// hop is a new transfer, checked at connect time), listed in `redirects`
/// with the status `"refresh"`, and counted towards the redirect limit, so a
/// refresh loop ends in `tooManyRedirects`.
extension LinkPeekEngine {
    /// What one fetch went through before the page being requested.
    struct PageHops: Sendable {
        /// Redirects followed so far, HTTP and refresh, in order; the first
        /// hop's URL is the one asked for.
        var earlier: [RedirectHop] = []
        /// Ask a held host all the same (`cachePolicy: "reload"`).
        var ignoresBackoff = false
    }

    /// Follows the refresh of the page that answered `head` (after `redirects`) to `target`.
    func followRefresh(
        to target: String, from head: ResponseHead, redirects: [Hop], hops: PageHops, timeout: Double,
        partials: @escaping @Sendable () -> Bool, headers: [String],
        events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> PageLoad {
        var next = hops
        next.earlier += redirects.map { RedirectHop(url: $0.url, status: $0.status) }
        next.earlier.append(.refresh(url: head.url, status: head.status))
        guard next.earlier.count <= settings.maxRedirects else {
            let detail = "Maximum (\(settings.maxRedirects)) redirects followed; the last was a meta refresh to \(target)"
            throw .failed(.tooManyRedirects, "too many redirects (\(detail)).")
        }
        logger.info("meta refresh followed", metadata: [
            "from": "\(head.url)", "to": "\(target)", "hop": "\(next.earlier.count)",
        ])
        // Validators belong to the page first asked for, not to where it sends the reader.
        let forwarded = headers.filter { !$0.lowercased().hasPrefix("if-") }
        return try await loadPage(
            url: target, timeout: timeout, partials: partials, headers: forwarded, conditional: false, hops: next,
            events: events)
    }
}
