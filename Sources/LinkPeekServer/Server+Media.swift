import JSONRPC
import LinkPeek
import LinkPeekProtocol

extension Server {
    /// `getMedia`: checks params, then transforms in its own task, which
    /// `$/cancelRequest` (or `window/workDoneProgress/cancel` on its token)
    /// cancels; progress on `workDoneToken` as for `fetch`. There is no
    /// provider id: it is not a fetch.
    func getMedia(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let params = requestParams(GetMediaParams.self, rawParams, id, responder) else { return }
        if let conflict = tokenConflict(workDone: params.workDoneToken, partialResult: nil) {
            return responder.respond(.error(id, conflict))
        }
        // A data: URL reports nothing (no fetch): its title is never sent, and need not carry it.
        let title = params.url.hasPrefix("data:") ? "Rendering an image" : "Fetching image for \(params.url)"
        let reporter = ProgressReporter(
            connection: connection, title: title, workDoneToken: params.workDoneToken, partialResultToken: nil)
        let service = currentService()
        let tokens = claimTokens([params.workDoneToken], for: id)
        requests[id] = InFlight(task: nil, provider: nil, reporter: reporter, responder: responder, tokens: tokens)
        let task = Task {
            let result = await Self.runMedia(service: service, params: params, reporter: reporter)
            self.complete(id, with: result)
        }
        requests[id]?.task = task
    }

    /// One `getMedia` as the response it gets (kept out of the `Task`
    /// closure for the reason `runFetch` gives).
    static func runMedia(
        service: any MetadataService, params: GetMediaParams, reporter: ProgressReporter
    ) async -> Result<JSONValue, ResponseError> {
        do {
            let image = try await service.media(
                url: params.url, transform: params.transform, timeout: params.timeout, events: reporter.handle)
            return encodeResult(GetMediaResult(image))
        } catch {
            return .failure(ResponseError(error))
        }
    }
}
