import JSONRPC
import LinkPeek
import LinkPeekProtocol

extension Server {
    /// `textDocument/documentLink`: every URL of an open document, `null`
    /// for one that is not open (or too large to scan).
    func documentLinks(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let params = requestParams(DocumentLinkParams.self, rawParams, id, responder) else { return }
        guard let document = documents[params.textDocument.uri] else {
            return responder.respond(.result(id, .null))
        }
        let json = DocumentLinkWriter.json(for: document, encoding: lsp.positionEncoding)
        responder.respond(.result(id, .raw(RawJSON(trusted: json))))
    }

    /// `documentLink/resolve`: the link back, with `tooltip` set to the
    /// cached title of its `target` when there is one. Never fetches.
    func resolveDocumentLink(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let target = requestParams(DocumentLinkResolveParams.self, rawParams, id, responder)?.target else { return }
        // Every other field of the link goes back as it came.
        guard case .object(var link)? = rawParams else { return responder.respond(.error(id, .invalidParams("params must be an object"))) }
        let service = currentService()
        requests[id] = InFlight(task: nil, provider: nil, reporter: nil, responder: responder)
        let task = Task.immediate {
            if let title = await service.cached(url: target).flatMap({ LinkCard(metadata: $0).title }) {
                link["tooltip"] = .string(title)
            }
            self.complete(id, with: .success(.object(link)))
        }
        requests[id]?.task = task
    }
}
