/// `textDocument/documentLink` (request): every URL of an open document,
/// as `[{range, target, data: {url}}]` (`null` for a document that is not
/// open).
public struct DocumentLinkParams: Codable, Sendable, Equatable {
    public static let method = "textDocument/documentLink"

    public var textDocument: TextDocumentIdentifier
    public var workDoneToken: ProgressToken?
    public var partialResultToken: ProgressToken?

    public init(textDocument: TextDocumentIdentifier) {
        self.textDocument = textDocument
    }
}

/// `documentLink/resolve` (request): a link from `textDocument/documentLink`
/// back, with `tooltip` set to the cached page title when there is one.
/// Every other field is returned as it came.
///
/// The params are the link object itself; these are the fields checked
/// before it is echoed back (with `tooltip`).
public struct DocumentLinkResolveParams: Codable, Sendable, Equatable {
    public static let method = "documentLink/resolve"

    public var range: RangeParam
    public var target: String

    public init(range: RangeParam, target: String) {
        self.range = range
        self.target = target
    }

    public func validationError() -> String? {
        range.validationError(field: "range")
    }
}
