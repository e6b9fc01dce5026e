/// The result of `initialize`: what the daemon can do, who it is, and the
/// settings in effect for the session (after `initializationOptions`).
public struct InitializeResult: Encodable, Sendable, Equatable {
    public var capabilities: ServerCapabilities
    public var serverInfo: ServerInfo
    public var settings: SettingsInEffect?

    public init(capabilities: ServerCapabilities, serverInfo: ServerInfo, settings: SettingsInEffect? = nil) {
        self.capabilities = capabilities
        self.serverInfo = serverInfo
        self.settings = settings
    }
}

/// Features a client can rely on: linkpeek's own, then the LSP ones. Each
/// provider flag says whether the daemon answers its method, read from the
/// methods it serves (`methods`); `workDoneProgress`, `partialResults` and
/// `textDocumentSync` describe how it answers, the same in every version.
public struct ServerCapabilities: Encodable, Sendable, Equatable {
    /// The methods the daemon answers.
    public var methods: Set<String>
    /// LSP: "utf-16" unless the client offered "utf-8" or "utf-32" first.
    public var positionEncoding: String

    public init(methods: Set<String>, positionEncoding: String = "utf-16") {
        self.methods = methods
        self.positionEncoding = positionEncoding
    }

    private enum CodingKeys: String, CodingKey {
        case fetchProvider, cancelProvider, getCachedProvider, workDoneProgress, partialResults, savedLinksProvider
        case renderProvider, positionEncoding, hoverProvider, documentLinkProvider, textDocumentSync
        case getMediaProvider, prefetchProvider
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let serves = { (method: String) in methods.contains(method) }
        try container.encode(serves(FetchParams.method), forKey: .fetchProvider)
        try container.encode(serves(CancelParams.method), forKey: .cancelProvider)
        try container.encode(serves(GetCachedParams.method), forKey: .getCachedProvider)
        try container.encode(true, forKey: .workDoneProgress)
        try container.encode(true, forKey: .partialResults)
        // `save`, `unsave`, `saved`.
        try container.encode(
            [SaveParams.method, UnsaveParams.method, SavedParams.method].allSatisfy(serves), forKey: .savedLinksProvider)
        try container.encode(serves(RenderParams.method), forKey: .renderProvider)
        try container.encode(positionEncoding, forKey: .positionEncoding)
        try container.encode(serves(HoverParams.method), forKey: .hoverProvider)
        if serves(DocumentLinkParams.method) {
            try container.encode(
                DocumentLinkOptions(resolveProvider: serves(DocumentLinkResolveParams.method)), forKey: .documentLinkProvider)
        }
        try container.encode(TextDocumentSyncOptions(), forKey: .textDocumentSync)
        // `getMedia`, and `fetch`'s `thumbnail`.
        try container.encode(serves(GetMediaParams.method), forKey: .getMediaProvider)
        try container.encode(serves(PrefetchParams.method), forKey: .prefetchProvider)
    }
}

public struct DocumentLinkOptions: Encodable, Sendable, Equatable {
    public var resolveProvider: Bool

    public init(resolveProvider: Bool) {
        self.resolveProvider = resolveProvider
    }
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
