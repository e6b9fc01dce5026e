import JSONRPC
import LinkPeekProtocol
import Logging

/// `textDocument/didOpen`, `didChange`, `didClose`: notifications, so a bad
/// one cannot be answered; it is logged (naming the field) and dropped.
extension Server {
    func didOpen(_ rawParams: JSONValue?) {
        guard let params = decodeNotification(DidOpenTextDocumentParams.self, rawParams) else { return }
        let document = params.textDocument
        if let problem = ParamRanges.documentVersion.check(document.version, field: "textDocument.version") {
            return logger.warning("\(DidOpenTextDocumentParams.method): \(problem)")
        }
        log(documents.open(uri: document.uri, text: document.text))
        if lsp.prefetch, let opened = documents[document.uri] {
            enqueuePrefetch(opened.lines.lazy.flatMap(\.links).map(\.url))
        }
    }

    func didChange(_ rawParams: JSONValue?) {
        guard let params = decodeNotification(DidChangeTextDocumentParams.self, rawParams) else { return }
        let uri = params.textDocument.uri
        for change in params.contentChanges {
            let range = change.range.map { range in
                let (start, end) = (range.start.integers, range.end.integers)
                return (start: (start.line, start.character), end: (end.line, end.character))
            }
            log(documents.change(uri: uri, range: range, text: change.text, encoding: lsp.positionEncoding))
        }
    }

    func didClose(_ rawParams: JSONValue?) {
        guard let params = decodeNotification(DidCloseTextDocumentParams.self, rawParams) else { return }
        documents.close(uri: params.textDocument.uri)
    }

    /// `decodeRequest` for a notification: the params, or nil once the problem is logged.
    private func decodeNotification<T: RequestParams>(_ type: T.Type, _ rawParams: JSONValue?) -> T? {
        switch decodeRequest(type, from: rawParams) {
        case .success(let params): return params
        case .failure(let error):
            logger.warning("ignored a notification with bad params: \(error.message)")
            return nil
        }
    }

    /// Bounds reached are warnings: the client's hovers in that document now answer `null`.
    private func log(_ notes: [String]) {
        for note in notes { logger.warning("\(note)") }
    }
}
