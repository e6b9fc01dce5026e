import JSONRPC
import LinkPeek
import LinkPeekProtocol
import Options

/// `fetch`: one provider, reporting progress on the tokens given. A fresh
/// cache hit is answered at once with the stored bytes; anything else goes
/// on as a fetch.
extension FetchParams: ServiceRequest {
    var tokensUsed: (workDone: ProgressToken?, partialResult: ProgressToken?) { (workDoneToken, partialResultToken) }

    func provider(for id: RequestID) -> ProviderID? { providerId ?? ProviderID(id) }

    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<FetchAnswer> {
        let reporter = ProgressReporter(
            connection: server.connection, title: "Fetching \(url)",
            workDoneToken: workDoneToken, partialResultToken: partialResultToken)
        // A hover's fetch that `hover.fetch`/`hover.allow`/`hover.deny` keep
        // off the network answers from the cache alone.
        let heldHover = hover == true && !server.lsp.hover.hoverMayFetch(host: URLParts(url)?.host ?? "")
        let options = FetchOptions(
            timeout: timeout,
            cachePolicy: heldHover
                ? .cacheOnly : CachePolicy(rawValue: (cachePolicy ?? .default).rawValue) ?? .default,
            fetchSubresources: fetchSubresources ?? true,
            includeData: includeData ?? false,
            reportsPartialResults: partialResultToken != nil,
            acceptLanguage: acceptLanguage,
            thumbnail: thumbnail?.mediaParams.transform)
        let service = server.currentService()
        let url = url
        return .run(RequestWork(.immediate, reporter: reporter) { _ in
            switch await service.lookUp(url: url, options: options) {
            case .fresh(let json):
                return .success(.stored(RawJSON(trusted: json)))
            case .miss(let request):
                return await answer { () async throws(FetchError) in
                    .fetched(
                        try await Server.fetchPreview(
                            service: service, request: request, reporter: reporter, heldHover: heldHover))
                }
            }
        })
    }
}

/// `fetch`'s result: the bytes a fresh cache entry holds, or the preview just
/// fetched (as the bytes the cache stored for it, when they say the same).
enum FetchAnswer: RequestResult {
    case stored(RawJSON)
    case fetched(FetchedPreview)

    var resultJSON: Result<JSONValue, ResponseError> {
        switch self {
        case .stored(let json):
            return json.resultJSON
        case .fetched(let preview):
            do { return .success(.raw(RawJSON(trusted: try preview.json()))) } catch {
                return .failure(.internalError("Internal error: could not encode the result"))
            }
        }
    }
}

extension Server {
    /// One fetch. A held hover's miss says why nothing was fetched, as the
    /// LSP hover card does. (A function, not a `do` block in the task's
    /// closure: see `answer`.)
    static func fetchPreview(
        service: any MetadataService, request: PreviewRequest, reporter: ProgressReporter, heldHover: Bool
    ) async throws(FetchError) -> FetchedPreview {
        do throws(FetchError) {
            return try await service.fetch(request, events: reporter.handle)
        } catch var error {
            if heldHover, error.reason == .notCached, let status = notFetchedCard(url: request.url).status {
                error.message = status
            }
            throw error
        }
    }
}
