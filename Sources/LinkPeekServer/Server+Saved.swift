import JSONRPC
import LinkPeek
import LinkPeekProtocol

extension Server {
    /// `save`: runs in its own task (it may fetch), cancellable like `getCached`.
    func save(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let params = requestParams(SaveParams.self, rawParams, id, responder) else { return }
        let service = currentService()
        let task = Task {
            let result = await Self.runSave(service: service, params: params)
            self.complete(id, with: result)
        }
        requests[id] = InFlight(task: task, provider: nil, reporter: nil, responder: responder)
    }

    static func runSave(service: any MetadataService, params: SaveParams) async -> Result<JSONValue, ResponseError> {
        do {
            return encodeResult(try await service.save(url: params.url, tags: params.tags, title: params.title))
        } catch {
            return .failure(ResponseError(error))
        }
    }

    func unsave(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let params = requestParams(UnsaveParams.self, rawParams, id, responder) else { return }
        let service = currentService()
        let task = Task {
            let result = await Self.runUnsave(service: service, url: params.url)
            self.complete(id, with: result)
        }
        requests[id] = InFlight(task: task, provider: nil, reporter: nil, responder: responder)
    }

    static func runUnsave(service: any MetadataService, url: String) async -> Result<JSONValue, ResponseError> {
        do {
            return encodeResult(UnsaveResult(removed: try await service.unsave(url: url)))
        } catch {
            return .failure(ResponseError(error))
        }
    }

    func saved(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let params = requestParams(SavedParams.self, rawParams, id, responder) else { return }
        // Checked against the ranges above, so the conversions succeed.
        let limit = params.limit.flatMap(ParamRanges.savedLimit.integer) ?? Int(ParamRanges.savedLimit.maximum)
        let offset = params.offset.flatMap(ParamRanges.savedOffset.integer) ?? 0
        let service = currentService()
        let task = Task {
            let links = await service.saved(tag: params.tag, limit: limit, offset: offset)
            self.complete(id, with: encodeResult(links))
        }
        requests[id] = InFlight(task: task, provider: nil, reporter: nil, responder: responder)
    }
}
