/// `textDocument/didChange` (notification): edits to an open document, in
/// order. A change with a `range` replaces that range (incremental sync,
/// `change: 2`); one without replaces the whole text (full sync).
public struct DidChangeTextDocumentParams: Codable, Sendable, Equatable {
    public static let method = "textDocument/didChange"

    public var textDocument: VersionedTextDocumentIdentifier
    public var contentChanges: [TextDocumentContentChange]

    public init(textDocument: VersionedTextDocumentIdentifier, contentChanges: [TextDocumentContentChange]) {
        self.textDocument = textDocument
        self.contentChanges = contentChanges
    }

    /// The first rule broken beyond the types, naming the field.
    public func validationError() -> String? {
        if let problem = ParamRanges.documentVersion.check(textDocument.version, field: "textDocument.version") {
            return problem
        }
        for (index, change) in contentChanges.enumerated() {
            if let problem = change.range?.validationError(field: "contentChanges[\(index)].range") { return problem }
        }
        return nil
    }
}

public struct VersionedTextDocumentIdentifier: Codable, Sendable, Equatable {
    public var uri: String
    public var version: Double?

    public init(uri: String, version: Double? = nil) {
        self.uri = uri
        self.version = version
    }
}

public struct TextDocumentContentChange: Codable, Sendable, Equatable {
    /// Absent: `text` is the whole new document.
    public var range: RangeParam?
    public var text: String

    public init(range: RangeParam? = nil, text: String) {
        self.range = range
        self.text = text
    }
}
