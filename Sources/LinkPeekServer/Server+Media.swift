import JSONRPC
import LinkPeek
import LinkPeekProtocol

/// `getMedia`: transforms in its own task, which `$/cancelRequest` (or
/// `window/workDoneProgress/cancel` on its token) cancels; progress on
/// `workDoneToken` as for `fetch`. There is no provider id: it is not a fetch.
extension GetMediaParams: ServiceRequest {
    var tokensUsed: (workDone: ProgressToken?, partialResult: ProgressToken?) { (workDoneToken, nil) }

    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<GetMediaResult> {
        // A data: URL reports nothing (no fetch): its title is never sent, and need not carry it.
        let title = url.hasPrefix("data:") ? "Rendering an image" : "Fetching image for \(url)"
        let reporter = ProgressReporter(
            connection: server.connection, title: title, workDoneToken: workDoneToken, partialResultToken: nil)
        let service = server.currentService()
        return .run(RequestWork(.task(priority: nil), reporter: reporter) { _ in
            await answer { () async throws(FetchError) in
                GetMediaResult(try await service.media(url: url, transform: transform, timeout: timeout, events: reporter.handle))
            }
        })
    }
}
