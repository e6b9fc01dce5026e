import JSONRPC
import LinkPeek
import LinkPeekProtocol

/// One request of the daemon: its params type names the method
/// (`RequestParams.method`) and the typed `Response`, and says how the
/// request is answered (`handle`). `Server.serve(_:_:_:_:)` does the rest
/// for every one of them alike: reads the params, checks and claims the
/// progress tokens, registers the provider, keeps a running request in the
/// table (so `$/cancelRequest`, `cancel` and `shutdown` reach it), and
/// answers it once.
///
/// Adding a request: its params type in `LinkPeekProtocol`, a conformance
/// here in `LinkPeekServer` (next to what it calls), its row in
/// `Server.requestTypes`, a tier-2 test and its section in `protocol/`.
protocol ServiceRequest: Sendable {
    associatedtype Response: RequestResult

    /// The JSON-RPC method.
    static var method: String { get }

    /// Reads the params: by default the one decoding path (`decodeRequest`);
    /// a request may refuse before reading (`initialize` sent twice) or add a rule.
    static func read(_ raw: JSONValue?, on server: isolated Server) -> Result<Self, ResponseError>

    /// The progress tokens the request uses, one running request each
    /// (checked before `handle`, freed when it is answered).
    var tokensUsed: (workDone: ProgressToken?, partialResult: ProgressToken?) { get }

    /// The provider the request runs as (`cancel {providerId}` reaches it,
    /// once per session); nil for a request that is no provider.
    func provider(for id: RequestID) -> ProviderID?

    /// On the server, once the params are read: the answer at once, or the
    /// work that answers it in its own task.
    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<Response>
}

extension ServiceRequest where Self: RequestParams {
    static func read(_ raw: JSONValue?, on server: isolated Server) -> Result<Self, ResponseError> {
        decodeRequest(Self.self, from: raw)
    }
}

extension ServiceRequest {
    var tokensUsed: (workDone: ProgressToken?, partialResult: ProgressToken?) { (nil, nil) }

    func provider(for id: RequestID) -> ProviderID? { nil }
}

/// What `handle` is given besides the params.
struct IncomingRequest: Sendable {
    let id: RequestID
    /// The params as they came (`documentLink/resolve` sends the link back as it came).
    let raw: JSONValue?
}

/// How a request is answered.
enum Handling<Response: RequestResult> {
    /// At once, on the server (the quick requests, and a refusal found by `handle`).
    case answer(Result<Response, ResponseError>)
    /// By `work`, in a task of its own kept in the table until it is answered.
    case run(RequestWork<Response>)
}

struct RequestWork<Response: RequestResult>: Sendable {
    enum Start: Sendable {
        /// `Task.immediate`: runs on the server up to its first suspension,
        /// so a cache hit is answered here and now instead of as one more
        /// job on the actor (which cost a thread wake-up per request).
        case immediate
        case task(priority: TaskPriority?)
    }

    var start: Start
    /// Ends the work-done progress when the request is answered.
    var reporter: ProgressReporter?
    /// Runs on the server up to its first suspension (for `.immediate`, in
    /// the same turn as the request): its argument is the server, isolated.
    var body: @Sendable (isolated Server) async -> Result<Response, ResponseError>

    init(
        _ start: Start, reporter: ProgressReporter? = nil,
        _ body: @escaping @Sendable (isolated Server) async -> Result<Response, ResponseError>
    ) {
        self.start = start
        self.reporter = reporter
        self.body = body
    }
}

/// A typed result as the response's JSON: an `Encodable` one is encoded
/// straight to bytes (`encodeResult`); bytes already encoded (a cached
/// preview) are spliced in as they are.
protocol RequestResult: Sendable {
    var resultJSON: Result<JSONValue, ResponseError> { get }
}

extension RequestResult where Self: Encodable {
    var resultJSON: Result<JSONValue, ResponseError> { encodeResult(self) }
}

// The typed results, each encoded by its `Encodable` conformance.
extension InitializeResult: RequestResult {}
extension CancelResult: RequestResult {}
extension LinkMetadata: RequestResult {}
extension UnsaveResult: RequestResult {}
extension GetMediaResult: RequestResult {}
extension PrefetchResult: RequestResult {}
extension RenderResult: RequestResult {}
extension Hover: RequestResult {}
extension Array: RequestResult where Element: RequestResult & Encodable {}

extension RawJSON: RequestResult {
    var resultJSON: Result<JSONValue, ResponseError> { .success(.raw(self)) }
}

extension JSONValue: RequestResult {
    var resultJSON: Result<JSONValue, ResponseError> { .success(self) }
}

extension Optional: RequestResult where Wrapped: RequestResult {
    /// `null` for none (`getCached` of a URL not cached, a hover off any URL).
    var resultJSON: Result<JSONValue, ResponseError> { self?.resultJSON ?? .success(.null) }
}

/// The outcome of a service call that throws a `FetchError`, as an answer.
/// (A function, not a `do` block in the task's closure: Swift 6.3.1
/// miscompiled a `do throws(FetchError)` block inside a task-group closure
/// in release builds, and a task's closure is the same shape.)
func answer<T>(_ body: () async throws(FetchError) -> T) async -> Result<T, ResponseError> {
    do throws(FetchError) {
        return .success(try await body())
    } catch {
        return .failure(ResponseError(error))
    }
}

extension Server {
    /// Every request the daemon answers. The rest of the methods it reads
    /// are notifications (`handle(notification:params:)`).
    static let requestTypes: [any ServiceRequest.Type] = [
        InitializeRequest.self, ShutdownParams.self, CancelParams.self,
        FetchParams.self, GetCachedParams.self, GetMediaParams.self, PrefetchParams.self, RenderRequest.self,
        SaveParams.self, UnsaveParams.self, SavedParams.self,
        HoverParams.self, DocumentLinkParams.self, DocumentLinkResolveParams.self,
    ]

    static let requestTypesByMethod: [String: any ServiceRequest.Type] =
        Dictionary(requestTypes.map { ($0.method, $0) }) { first, _ in first }

    /// Request `id` of type `R`, from its params to its answer.
    func serve<R: ServiceRequest>(_ type: R.Type, _ id: RequestID, _ raw: JSONValue?, _ responder: Responder) {
        let params: R
        switch R.read(raw, on: self) {
        case .success(let read): params = read
        case .failure(let error): return responder.respond(.error(id, error))
        }
        let tokens = params.tokensUsed
        if let conflict = tokenConflict(workDone: tokens.workDone, partialResult: tokens.partialResult) {
            return responder.respond(.error(id, conflict))
        }
        let provider = params.provider(for: id)
        if let provider, !providers.start(provider, for: id) {
            return responder.respond(.error(id, ResponseError(FetchError.providerReused)))
        }
        switch params.handle(IncomingRequest(id: id, raw: raw), on: self) {
        case .answer(let result):
            if let provider { providers.finish(provider) }
            responder.respond(.response(id: id, result: result.flatMap(\.resultJSON)))
        case .run(let work):
            let claimed = claimTokens([tokens.workDone, tokens.partialResult], for: id)
            // In the table first: an immediate task may answer before it returns.
            requests[id] = InFlight(task: nil, provider: provider, reporter: work.reporter, responder: responder, tokens: claimed)
            let body = work.body
            // Each closure calls `complete` without `await`: isolated to the
            // server, so `.immediate` runs the work here up to its first
            // suspension, and `body` (given the server, isolated) with it.
            let task: Task<Void, Never> =
                switch work.start {
                case .immediate:
                    Task.immediate {
                        let result = await body(self)
                        self.complete(id, with: result.flatMap(\.resultJSON))
                    }
                case .task(let priority):
                    Task(priority: priority) {
                        let result = await body(self)
                        self.complete(id, with: result.flatMap(\.resultJSON))
                    }
                }
            // Still running (it suspended): kept so that it can be cancelled.
            requests[id]?.task = task
        }
    }
}

/// `save`: saves the link (it may fetch) → the preview with `savedAt` and `tags`.
extension SaveParams: ServiceRequest {
    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<LinkMetadata> {
        let service = server.currentService()
        return .run(RequestWork(.task(priority: nil)) { _ in
            await answer { () async throws(FetchError) in try await service.save(url: url, tags: tags, title: title) }
        })
    }
}

/// `unsave`: forgets a saved link → whether there was one.
extension UnsaveParams: ServiceRequest {
    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<UnsaveResult> {
        let service = server.currentService()
        return .run(RequestWork(.task(priority: nil)) { _ in
            await answer { () async throws(FetchError) in UnsaveResult(removed: try await service.unsave(url: url)) }
        })
    }
}

/// `saved`: saved links, newest first.
extension SavedParams: ServiceRequest {
    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<[LinkMetadata]> {
        let service = server.currentService()
        // Checked against the ranges by `validationError`, so the conversions succeed.
        let limit = limit.flatMap(ParamRanges.savedLimit.integer) ?? Int(ParamRanges.savedLimit.maximum)
        let offset = offset.flatMap(ParamRanges.savedOffset.integer) ?? 0
        let tag = tag
        return .run(RequestWork(.task(priority: nil)) { _ in
            .success(await service.saved(tag: tag, limit: limit, offset: offset))
        })
    }
}
