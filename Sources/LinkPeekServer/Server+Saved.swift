import JSONRPC
import LinkPeek
import LinkPeekProtocol

extension Server {
    /// `save`: runs in its own task (it may fetch), cancellable like `getCached`.
    func save(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let params = decodeChecked(SaveParams.self, rawParams, id, responder, check: { $0.validationError() })
        else { return }
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
        guard let params = decodeChecked(UnsaveParams.self, rawParams, id, responder, check: { $0.validationError() })
        else { return }
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
        guard let params = decodeChecked(SavedParams.self, rawParams, id, responder, check: { $0.validationError() })
        else { return }
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

    /// Params decoded and checked, or nil after answering the error.
    func decodeChecked<T: Decodable>(
        _ type: T.Type, _ rawParams: JSONValue?, _ id: RequestID, _ responder: Responder,
        check: (T) -> String?
    ) -> T? {
        switch decodeParams(type, from: rawParams) {
        case .success(let params):
            if let problem = check(params) {
                responder.respond(.error(id, .invalidParams(problem)))
                return nil
            }
            return params
        case .failure(let error):
            responder.respond(.error(id, error))
            return nil
        }
    }
}
