import JSONRPC
import LinkPeek
import LinkPeekProtocol

extension Server {
    /// `prefetch`: one provider (so `cancel {providerId}` works as for
    /// `fetch`) that warms many URLs at background priority.
    func prefetch(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let params = requestParams(PrefetchParams.self, rawParams, id, responder) else { return }
        guard let provider = startProvider(params.providerId, for: id, responder) else { return }
        let progress = CountProgress(
            connection: connection, title: "Prefetching \(params.urls.count) links", token: params.workDoneToken)
        let service = currentService()
        let thumbnail = params.thumbnail?.mediaParams.transform
        let urls = params.urls
        let task = Task(priority: .background) {
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
            self.complete(id, with: encodeResult(PrefetchResult(
                total: summary.total, succeeded: summary.succeeded, failed: failures.count, failures: failures)))
        }
        requests[id] = InFlight(task: task, provider: provider, reporter: nil, responder: responder)
    }
}
