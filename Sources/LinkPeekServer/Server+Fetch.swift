import JSONRPC
import LinkPeek
import LinkPeekProtocol
import Options

extension Server {
    /// Starts one provider: checks params and the one-shot rule, then runs
    /// the fetch in its own task, reporting progress on the tokens given.
    func fetch(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let params = requestParams(FetchParams.self, rawParams, id, responder) else { return }
        if let conflict = tokenConflict(workDone: params.workDoneToken, partialResult: params.partialResultToken) {
            return responder.respond(.error(id, conflict))
        }
        guard let provider = startProvider(params.providerId, for: id, responder) else { return }
        let reporter = ProgressReporter(
            connection: connection, title: "Fetching \(params.url)",
            workDoneToken: params.workDoneToken, partialResultToken: params.partialResultToken)
        // A hover's fetch that `hover.fetch`/`hover.allow`/`hover.deny` keep
        // off the network answers from the cache alone.
        let heldHover = params.hover == true && !lsp.hover.hoverMayFetch(host: URLParts(params.url)?.host ?? "")
        let options = FetchOptions(
            timeout: params.timeout,
            cachePolicy: heldHover
                ? .cacheOnly : CachePolicy(rawValue: (params.cachePolicy ?? .default).rawValue) ?? .default,
            fetchSubresources: params.fetchSubresources ?? true,
            includeData: params.includeData ?? false,
            reportsPartialResults: params.partialResultToken != nil,
            acceptLanguage: params.acceptLanguage,
            thumbnail: params.thumbnail?.mediaParams.transform)
        let service = currentService()
        let url = params.url
        // In the table first: the task below may complete the request before it returns.
        let tokens = claimTokens([params.workDoneToken, params.partialResultToken], for: id)
        requests[id] = InFlight(task: nil, provider: provider, reporter: reporter, responder: responder, tokens: tokens)
        // `Task.immediate`, as in `getCached`: a fresh cache hit is answered
        // here and now with the stored bytes; anything else suspends and
        // goes on as a fetch.
        let task = Task.immediate {
            if let json = await service.freshCachedJSON(url: url, options: options) {
                return self.complete(id, with: .success(.raw(RawJSON(trusted: json))))
            }
            let result = await Self.runFetch(
                service: service, url: url, options: options, reporter: reporter, heldHover: heldHover)
            self.complete(id, with: result)
        }
        requests[id]?.task = task
    }
}

extension Server {
    /// One fetch as the response it gets. (Kept out of the `Task` closure:
    /// Swift 6.3.1 miscompiled a `do throws(FetchError)` block inside a
    /// task-group closure in release builds, and this is the same shape.)
    static func runFetch(
        service: any MetadataService, url: String, options: FetchOptions, reporter: ProgressReporter,
        heldHover: Bool = false
    ) async -> Result<JSONValue, ResponseError> {
        do {
            return encodeResult(try await service.fetch(url: url, options: options, events: reporter.handle))
        } catch var error {
            // A held hover's miss says why nothing was fetched, as the LSP hover card does.
            if heldHover, error.reason == .notCached, let status = notFetchedCard(url: url).status {
                error.message = status
            }
            return .failure(ResponseError(error))
        }
    }
}
