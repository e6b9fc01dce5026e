import LinkPeek
import Options

/// Opt-in prefetch (`initializationOptions.prefetch`): the URLs of opened
/// documents are fetched ahead of any hover, a few at a time at background
/// priority, so that the first hover is already a cache hit. A hover of a
/// URL being prefetched joins that fetch.
extension Server {
    func enqueuePrefetch(_ urls: some Sequence<String>) {
        var seen = Set(prefetchQueue)
        var added = 0
        for url in urls where added < PrefetchLimits.perDocument && prefetchQueue.count < PrefetchLimits.queued {
            guard previews[url] == nil, seen.insert(url).inserted else { continue }
            prefetchQueue.append(url)
            added += 1
        }
        pumpPrefetch()
    }

    /// Starts queued prefetches while fewer than `PrefetchLimits.concurrent` run.
    func pumpPrefetch() {
        while prefetchRunning < PrefetchLimits.concurrent, !prefetchQueue.isEmpty {
            let url = prefetchQueue.removeFirst()
            // Prefetch follows the hover's rule: what a hover may not fetch, neither may it.
            guard lsp.hover.hoverMayFetch(host: URLParts(url)?.host ?? "") else { continue }
            guard previews[url] == nil else { continue }
            prefetchRunning += 1
            _ = previewFlight(for: PreviewRequest(url: url, options: Self.previewOptions), prefetch: true)
        }
    }
}
