/// `textDocument/didOpen` (notification): the client opened a document; the
/// daemon keeps its text (bounded) and its URLs.
public struct DidOpenTextDocumentParams: Codable, Sendable, Equatable {
    public static let method = "textDocument/didOpen"

    public var textDocument: TextDocumentItem

    public init(textDocument: TextDocumentItem) {
        self.textDocument = textDocument
    }
}

public struct TextDocumentItem: Codable, Sendable, Equatable {
    public var uri: String
    public var languageId: String?
    /// Informational; read as a number (`ParamRanges.documentVersion`).
    public var version: Double?
    public var text: String

    public init(uri: String, languageId: String? = nil, version: Double? = nil, text: String) {
        self.uri = uri
        self.languageId = languageId
        self.version = version
        self.text = text
    }
}
