/// `textDocument/didClose` (notification): the daemon forgets the document.
public struct DidCloseTextDocumentParams: Codable, Sendable, Equatable {
    public static let method = "textDocument/didClose"

    public var textDocument: TextDocumentIdentifier

    public init(textDocument: TextDocumentIdentifier) {
        self.textDocument = textDocument
    }
}
