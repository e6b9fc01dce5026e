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

/// Features a client can rely on: linkpeek's own, then the LSP ones.
public struct ServerCapabilities: Codable, Sendable, Equatable {
    public var fetchProvider = true
    public var cancelProvider = true
    public var getCachedProvider = true
    public var workDoneProgress = true
    public var partialResults = true
    /// `save`, `unsave`, `saved`.
    public var savedLinksProvider = true
    public var renderProvider = true
    /// LSP: "utf-16" unless the client offered "utf-8" or "utf-32" first.
    public var positionEncoding: String
    public var hoverProvider = true
    public var documentLinkProvider = DocumentLinkOptions()
    public var textDocumentSync = TextDocumentSyncOptions()
    /// `getMedia`, and `fetch`'s `thumbnail`.
    public var getMediaProvider = true
    public var prefetchProvider = true

    public init(positionEncoding: String = "utf-16") {
        self.positionEncoding = positionEncoding
    }
}

public struct DocumentLinkOptions: Codable, Sendable, Equatable {
    public var resolveProvider = true
    public init() {}
}

/// LSP text sync: open/close notifications, incremental changes (`2`).
public struct TextDocumentSyncOptions: Codable, Sendable, Equatable {
    public var openClose = true
    public var change = 2
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
