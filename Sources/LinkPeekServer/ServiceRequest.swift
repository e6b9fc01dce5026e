import JSONRPC
import LinkPeek
import LinkPeekProtocol

/// A request that is one call of the service and an answer: its params
/// type names the method (`RequestParams.method`), the typed `Response`,
/// and how the service answers it. `Server.serve(_:)` does the rest for
/// every one of them alike: params, the in-flight table (so `$/cancelRequest`
/// and `shutdown` reach it), the answer, once.
///
/// Adding such a request: its params type in `LinkPeekProtocol`, a
/// conformance here, and its row in `Server.serviceRequests`.
protocol ServiceRequest: RequestParams {
    associatedtype Response: Encodable

    /// What the service answers to these params; a `FetchError` is the
    /// request's error (`ResponseError(_:)`).
    static func answer(_ params: Self, from service: any MetadataService) async throws(FetchError) -> Response
}

extension Server {
    /// The requests served by `serve(_:)`, by method.
    static let serviceRequests: [String: any ServiceRequest.Type] = [
        SaveParams.method: SaveParams.self,
        UnsaveParams.method: UnsaveParams.self,
        SavedParams.method: SavedParams.self,
    ]

    /// Runs request `id` of type `R` in its own task, kept in the table
    /// until it is answered (or cancelled, which answers it at once).
    func serve<R: ServiceRequest>(_ type: R.Type, _ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let params = requestParams(type, rawParams, id, responder) else { return }
        let service = currentService()
        let task = Task {
            let result: Result<JSONValue, ResponseError>
            do throws(FetchError) {
                result = encodeResult(try await R.answer(params, from: service))
            } catch {
                result = .failure(ResponseError(error))
            }
            self.complete(id, with: result)
        }
        requests[id] = InFlight(task: task, provider: nil, reporter: nil, responder: responder)
    }
}

/// `save`: saves the link (it may fetch) → the preview with `savedAt` and `tags`.
extension SaveParams: ServiceRequest {
    static func answer(_ params: Self, from service: any MetadataService) async throws(FetchError) -> LinkMetadata {
        try await service.save(url: params.url, tags: params.tags, title: params.title)
    }
}

/// `unsave`: forgets a saved link → whether there was one.
extension UnsaveParams: ServiceRequest {
    static func answer(_ params: Self, from service: any MetadataService) async throws(FetchError) -> UnsaveResult {
        UnsaveResult(removed: try await service.unsave(url: params.url))
    }
}

/// `saved`: saved links, newest first.
extension SavedParams: ServiceRequest {
    static func answer(_ params: Self, from service: any MetadataService) async throws(FetchError) -> [LinkMetadata] {
        // Checked against the ranges by `validationError`, so the conversions succeed.
        let limit = params.limit.flatMap(ParamRanges.savedLimit.integer) ?? Int(ParamRanges.savedLimit.maximum)
        let offset = params.offset.flatMap(ParamRanges.savedOffset.integer) ?? 0
        return await service.saved(tag: params.tag, limit: limit, offset: offset)
    }
}
