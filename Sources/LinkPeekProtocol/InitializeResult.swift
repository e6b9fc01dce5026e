/// The result of `initialize`: what the daemon can do and who it is.
public struct InitializeResult: Codable, Sendable, Equatable {
    public var capabilities: ServerCapabilities
    public var serverInfo: ServerInfo

    public init(capabilities: ServerCapabilities = ServerCapabilities(), serverInfo: ServerInfo) {
        self.capabilities = capabilities
        self.serverInfo = serverInfo
    }
}

/// Features a client can rely on; all true in this version.
public struct ServerCapabilities: Codable, Sendable, Equatable {
    public var fetchProvider = true
    public var cancelProvider = true
    public var getCachedProvider = true
    public var workDoneProgress = true
    public var partialResults = true
    /// `getMedia`, and `fetch`'s `thumbnail`.
    public var getMediaProvider = true
    public var prefetchProvider = true

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
