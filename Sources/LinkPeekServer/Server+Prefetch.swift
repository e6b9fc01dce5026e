import JSONRPC
import LinkPeek
import LinkPeekProtocol

/// `prefetch`: one provider (so `cancel {providerId}` works as for `fetch`)
/// that warms many URLs at background priority.
extension PrefetchParams: ServiceRequest {
    func provider(for id: RequestID) -> ProviderID? { providerId ?? ProviderID(id) }

    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<PrefetchResult> {
        let progress = CountProgress(
            connection: server.connection, title: "Prefetching \(urls.count) links", token: workDoneToken)
        let service = server.currentService()
        let thumbnail = thumbnail?.mediaParams.transform
        let urls = urls
        return .run(RequestWork(.task(priority: .background)) { _ in
            progress.begin(total: urls.count)
            let summary = await service.prefetch(urls: urls, thumbnail: thumbnail) { done, total in
                progress.report(done: done, total: total)
            }
            let failures = summary.failures.map {
                PrefetchFailure(
                    url: $0.url, kind: $0.error.kind.rawValue, reason: $0.error.reason?.rawValue,
                    message: $0.error.message, retryAfter: $0.error.retryAfter)
            }
            // `end` before the response, as for `fetch`.
            progress.end()
            return .success(PrefetchResult(total: summary.total, succeeded: summary.succeeded, failed: failures.count, failures: failures))
        })
    }
}
