/// The result of `initialize`: what the daemon can do, who it is, and the
/// settings in effect for the session (after `initializationOptions`).
public struct InitializeResult: Codable, Sendable, Equatable {
    public var capabilities: ServerCapabilities
    public var serverInfo: ServerInfo
    public var settings: SettingsInEffect?

    public init(capabilities: ServerCapabilities = ServerCapabilities(), serverInfo: ServerInfo, settings: SettingsInEffect? = nil) {
        self.capabilities = capabilities
        self.serverInfo = serverInfo
        self.settings = settings
    }
}

/// Features a client can rely on: linkpeek's own, then the LSP ones. Every
/// flag but `positionEncoding` is a constant of this version (written in
/// the `initialize` answer, never read back: a client's copy decodes them).
public struct ServerCapabilities: Codable, Sendable, Equatable {
    public let fetchProvider = true
    public let cancelProvider = true
    public let getCachedProvider = true
    public let workDoneProgress = true
    public let partialResults = true
    /// `save`, `unsave`, `saved`.
    public let savedLinksProvider = true
    public let renderProvider = true
    /// LSP: "utf-16" unless the client offered "utf-8" or "utf-32" first.
    public var positionEncoding: String
    public let hoverProvider = true
    public let documentLinkProvider = DocumentLinkOptions()
    public let textDocumentSync = TextDocumentSyncOptions()
    /// `getMedia`, and `fetch`'s `thumbnail`.
    public let getMediaProvider = true
    public let prefetchProvider = true

    public init(positionEncoding: String = "utf-16") {
        self.positionEncoding = positionEncoding
    }

    private enum CodingKeys: String, CodingKey {
        case fetchProvider, cancelProvider, getCachedProvider, workDoneProgress, partialResults, savedLinksProvider
        case renderProvider, positionEncoding, hoverProvider, documentLinkProvider, textDocumentSync
        case getMediaProvider, prefetchProvider
    }

    /// Reads `positionEncoding` only: the constants are this version's.
    public init(from decoder: any Decoder) throws {
        positionEncoding = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .positionEncoding)
    }
}

public struct DocumentLinkOptions: Encodable, Sendable, Equatable {
    public let resolveProvider = true
    public init() {}
}

/// LSP text sync: open/close notifications, incremental changes (`2`).
public struct TextDocumentSyncOptions: Encodable, Sendable, Equatable {
    public let openClose = true
    public let change = 2
    public init() {}
}

public struct ServerInfo: Codable, Sendable, Equatable {
    public var name: String
    public var version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }
}

/// The settings a session runs with, echoed so a client can show them.
public struct SettingsInEffect: Codable, Sendable, Equatable {
    public var allowPrivateNetwork: Bool
    public var timeout: Double
    public var maxConcurrency: Int
    /// Where the persistent cache lives (resolved: never absent).
    public var cacheDir: String
    public var hoverTimeout: Double
    public var prefetch: Bool
    public var hoverImages: Bool
    public var userAgent: String
    /// oEmbed (the provider list and discovery) on or off.
    public var oembed: Bool
    /// The `Accept-Language` sent when a request names none; "" sends none.
    public var acceptLanguage: String

    public init(
        allowPrivateNetwork: Bool, timeout: Double, maxConcurrency: Int, cacheDir: String,
        hoverTimeout: Double, prefetch: Bool, hoverImages: Bool, userAgent: String,
        oembed: Bool, acceptLanguage: String
    ) {
        self.allowPrivateNetwork = allowPrivateNetwork
        self.timeout = timeout
        self.maxConcurrency = maxConcurrency
        self.cacheDir = cacheDir
        self.hoverTimeout = hoverTimeout
        self.prefetch = prefetch
        self.hoverImages = hoverImages
        self.userAgent = userAgent
        self.oembed = oembed
        self.acceptLanguage = acceptLanguage
    }
}
