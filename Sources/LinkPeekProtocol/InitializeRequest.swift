/// `initialize` (request): the client introduces itself and configures the
/// daemon. Optional: requests before it are served with default settings.
/// Sending it twice is an error.
public struct InitializeParams: Codable, Sendable, Equatable {
    public static let method = "initialize"

    /// The client's process id (`ParamRanges.processId`); read as a number
    /// so that an absurd one is refused by name, not by the decoder.
    public var processId: Double?
    public var clientInfo: ClientInfo?
    // `initializationOptions`: the preferences of linkpeek's options table
    // (`protocol/config.md`) by the same names, read by the daemon as one
    // layer of its options (its `ClientOptions`), not here.
    /// Only `general.positionEncodings` and `textDocument.hover.contentFormat`
    /// are read; everything else is ignored.
    public var capabilities: ClientCapabilities?

    public init(
        processId: Double? = nil, clientInfo: ClientInfo? = nil, capabilities: ClientCapabilities? = nil
    ) {
        self.processId = processId
        self.clientInfo = clientInfo
        self.capabilities = capabilities
    }
}

public struct ClientCapabilities: Codable, Sendable, Equatable {
    public var general: GeneralClientCapabilities?
    public var textDocument: TextDocumentClientCapabilities?

    public init(general: GeneralClientCapabilities? = nil, textDocument: TextDocumentClientCapabilities? = nil) {
        self.general = general
        self.textDocument = textDocument
    }
}

public struct TextDocumentClientCapabilities: Codable, Sendable, Equatable {
    public var hover: HoverClientCapabilities?

    public init(hover: HoverClientCapabilities? = nil) {
        self.hover = hover
    }
}

public struct HoverClientCapabilities: Codable, Sendable, Equatable {
    /// The markup kinds the client shows in a hover, most preferred first
    /// ("markdown", "plaintext"); absent means Markdown.
    public var contentFormat: [String]?

    public init(contentFormat: [String]? = nil) {
        self.contentFormat = contentFormat
    }
}

public struct GeneralClientCapabilities: Codable, Sendable, Equatable {
    /// The position encodings the client supports, most preferred first
    /// ("utf-8", "utf-16", "utf-32"); absent means UTF-16 only.
    public var positionEncodings: [String]?

    public init(positionEncodings: [String]? = nil) {
        self.positionEncodings = positionEncodings
    }
}

extension InitializeParams {
    /// The first rule these params break beyond their types, naming the field.
    public func validationError() -> String? {
        ParamRanges.processId.check(processId, field: "processId")
    }
}

public struct ClientInfo: Codable, Sendable, Equatable {
    public var name: String
    public var version: String?

    public init(name: String, version: String? = nil) {
        self.name = name
        self.version = version
    }
}
