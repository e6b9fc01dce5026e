import JSONRPC
import LinkPeek
import LinkPeekProtocol

extension Server {
    /// `getMedia`: checks params, then transforms in its own task, which
    /// `$/cancelRequest` cancels (there is no provider id: it is not a fetch).
    func getMedia(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        let params: GetMediaParams
        switch decodeCheckedParams(GetMediaParams.self, from: rawParams) {
        case .success(let decoded): params = decoded
        case .failure(let error): return responder.respond(.error(id, error))
        }
        let service = currentService()
        requests[id] = InFlight(task: nil, provider: nil, reporter: nil, responder: responder)
        let task = Task {
            let result = await Self.runMedia(service: service, params: params)
            self.complete(id, with: result)
        }
        requests[id]?.task = task
    }

    /// One `getMedia` as the response it gets (kept out of the `Task`
    /// closure for the reason `runFetch` gives).
    static func runMedia(service: any MetadataService, params: GetMediaParams) async -> Result<JSONValue, ResponseError> {
        do {
            let image = try await service.media(url: params.url, transform: params.transform, timeout: params.timeout)
            return encodeResult(GetMediaResult(image))
        } catch {
            return .failure(ResponseError(error))
        }
    }
}
