import JSONRPC
import LinkPeek
import LinkPeekProtocol

/// `textDocument/documentLink`: every URL of an open document, `null`
/// for one that is not open (or too large to scan).
extension DocumentLinkParams: ServiceRequest {
    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<RawJSON?> {
        let json = server.documents[textDocument.uri].map { DocumentLinkWriter.json(for: $0, encoding: server.lsp.positionEncoding) }
        return .answer(.success(json.map(RawJSON.init(trusted:))))
    }
}

/// `documentLink/resolve`: the link back, with `tooltip` set to the cached
/// title of its `target` when there is one. Never fetches.
extension DocumentLinkResolveParams: ServiceRequest {
    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<JSONValue> {
        // Every other field of the link goes back as it came (read as an object by `read`).
        guard case .object(let link)? = request.raw else { return .answer(.failure(.invalidParams("params must be an object"))) }
        let service = server.currentService()
        let target = target
        return .run(RequestWork(.immediate) { _ in
            var link = link
            if let title = await service.cached(url: target).flatMap({ LinkCard(metadata: $0).title }) {
                link["tooltip"] = .string(title)
            }
            return .success(.object(link))
        })
    }
}
