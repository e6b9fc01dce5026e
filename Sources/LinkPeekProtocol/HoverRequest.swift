/// `textDocument/hover` (request): the preview card of the URL at a
/// position, as Markdown, or `null` when there is no URL there.
public struct HoverParams: Codable, Sendable, Equatable {
    public static let method = "textDocument/hover"

    public var textDocument: TextDocumentIdentifier
    public var position: PositionParam
    public var workDoneToken: ProgressToken?

    public init(textDocument: TextDocumentIdentifier, position: PositionParam, workDoneToken: ProgressToken? = nil) {
        self.textDocument = textDocument
        self.position = position
        self.workDoneToken = workDoneToken
    }

    public func validationError() -> String? {
        position.validationError(field: "position")
    }
}

/// The result of a hover: the card and the range of the URL it is about.
public struct Hover: Codable, Sendable, Equatable {
    public var contents: MarkupContent
    public var range: LSPRange?

    public init(contents: MarkupContent, range: LSPRange?) {
        self.contents = contents
        self.range = range
    }
}

public struct MarkupContent: Codable, Sendable, Equatable {
    /// "markdown", or "plaintext" for a client whose
    /// `textDocument.hover.contentFormat` puts plain text first.
    public var kind: String
    public var value: String

    public init(kind: String = "markdown", value: String) {
        self.kind = kind
        self.value = value
    }
}
