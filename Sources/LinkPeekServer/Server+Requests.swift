import JSONRPC
import LinkPeek
import LinkPeekProtocol
import Options

extension Server {
    func currentService() -> any MetadataService {
        if let service { return service }
        let made = makeService(settings, retired)
        service = made
        retired = nil
        return made
    }

    /// `initialize`: the client's settings and capabilities, once.
    func initialize(_ request: InitializeRequest) -> InitializeResult {
        let params = request.params
        // Requests served before initialize keep the service they started with.
        client = request.options
        applyOptions()
        lsp.positionEncoding = PositionEncoding.negotiate(offered: params.capabilities?.general?.positionEncodings)
        lsp.hoverFormat = HoverFormat.negotiate(offered: params.capabilities?.textDocument?.hover?.contentFormat)
        lifecycle = .running(initialized: true)
        sendPendingNotices()
        return InitializeResult(
            capabilities: ServerCapabilities(
                methods: Set(Self.requestTypes.map { $0.method }), positionEncoding: lsp.positionEncoding.rawValue),
            serverInfo: ServerInfo(name: Self.name, version: Settings.version),
            settings: settingsInEffect())
    }

    /// Answers the running request `id` with `result`, once: removes it from
    /// the table, ends its progress (before the response), frees its
    /// provider id. Does nothing if it was already answered (a late result
    /// after a cancel).
    func complete(_ id: RequestID, with result: Result<JSONValue, ResponseError>) {
        guard let entry = requests.removeValue(forKey: id) else { return }
        noteCompletion()
        if let provider = entry.provider { providers.finish(provider) }
        for token in entry.tokens { progressTokens[token] = nil }
        switch result {
        case .success: entry.reporter?.end(message: "done")
        case .failure(let error): entry.reporter?.end(message: error.message)
        }
        entry.responder.respond(.response(id: id, result: result))
    }

    /// Cancels the running request `id`: answers it -32800 at once (without
    /// waiting for the service to notice) and cancels its task. False if it
    /// is not running.
    @discardableResult
    func cancelRequest(_ id: RequestID) -> Bool {
        guard let entry = requests[id] else { return false }
        entry.task?.cancel()
        complete(id, with: .failure(entry.provider == nil ? .cancelled : ResponseError(FetchError.cancelled)))
        return true
    }

    /// Ends the session: every running request is cancelled and answered.
    func cancelAll() {
        for id in requests.keys { cancelRequest(id) }
        prefetchQueue.removeAll()
        for flight in previews.values { flight.cancel() }
    }

    /// Checks a request's progress tokens: nil when they can be used, else
    /// the error to answer. Equal work-done and partial-result tokens are a
    /// bad pair of params (-32602); a token that a running request still
    /// uses is refused like a request id in use (-32600), since the same
    /// value is fine once that request is answered.
    func tokenConflict(workDone: ProgressToken?, partialResult: ProgressToken?) -> ResponseError? {
        if let workDone, workDone == partialResult {
            return .invalidParams("partialResultToken must differ from workDoneToken")
        }
        if let workDone, progressTokens[workDone] != nil {
            return .invalidRequest("workDoneToken \(workDone) is in use by a running request")
        }
        if let partialResult, progressTokens[partialResult] != nil {
            return .invalidRequest("partialResultToken \(partialResult) is in use by a running request")
        }
        return nil
    }

    /// Marks the tokens used by request `id` until it is answered.
    func claimTokens(_ tokens: [ProgressToken?], for id: RequestID) -> [ProgressToken] {
        let claimed = tokens.compactMap { $0 }
        for token in claimed { progressTokens[token] = id }
        return claimed
    }
}

/// `initialize`: refused when sent twice; `initializationOptions` read as
/// the client's layer of options (`Options.client`).
struct InitializeRequest: ServiceRequest {
    static var method: String { InitializeParams.method }

    var params: InitializeParams
    var options: ClientOptions

    static func read(_ raw: JSONValue?, on server: isolated Server) -> Result<Self, ResponseError> {
        guard case .running(initialized: false) = server.lifecycle else {
            return .failure(.invalidRequest("initialize may only be sent once"))
        }
        return decodeRequest(InitializeParams.self, from: raw).flatMap { params in
            Options.client(raw?["initializationOptions"], field: "initializationOptions").map {
                InitializeRequest(params: params, options: $0)
            }
        }
    }

    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<InitializeResult> {
        .answer(.success(server.initialize(self)))
    }
}

/// `shutdown` → `null`; any params are ignored.
extension ShutdownParams: ServiceRequest {
    static func read(_ raw: JSONValue?, on server: isolated Server) -> Result<Self, ResponseError> {
        .success(ShutdownParams())
    }

    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<JSONValue> {
        server.lifecycle = .shuttingDown
        return .answer(.success(.null))
    }
}

/// `cancel {providerId}` → whether a running provider was cancelled.
extension CancelParams: ServiceRequest {
    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<CancelResult> {
        let cancelled = server.providers.running[providerId].map { server.cancelRequest($0) } ?? false
        return .answer(.success(CancelResult(cancelled: cancelled)))
    }
}

/// `getCached`: what the cache holds for the URL, fresh or stale, never
/// fetched; the bytes kept in the cache entry are spliced into the response
/// as they are.
extension GetCachedParams: ServiceRequest {
    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<RawJSON?> {
        let service = server.currentService()
        return .run(RequestWork(.immediate) { _ in
            return switch await service.cachedOutcome(url: url, acceptLanguage: acceptLanguage) {
            case .preview(let json)?: .success(RawJSON(trusted: json))
            case .failure(let error)?: .failure(ResponseError(error))
            case nil: .success(nil)
            }
        })
    }
}

/// `value` as a result, or an internal error if it cannot be encoded. It is
/// encoded straight to bytes, not to a `JSONValue` tree that the writer would
/// walk again.
func encodeResult(_ value: some Encodable) -> Result<JSONValue, ResponseError> {
    do {
        return .success(.raw(try RawJSON(encoding: value)))
    } catch {
        return .failure(.internalError("Internal error: could not encode the result"))
    }
}
