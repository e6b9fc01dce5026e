/// `initialize` (request): the client introduces itself and configures the
/// daemon. Optional: requests before it are served with default settings.
/// Sending it twice is an error.
public struct InitializeParams: Codable, Sendable, Equatable {
    public static let method = "initialize"

    /// The client's process id (`ParamRanges.processId`); read as a number
    /// so that an absurd one is refused by name, not by the decoder.
    public var processId: Double?
    public var clientInfo: ClientInfo?
    public var initializationOptions: InitializationOptions?

    public init(processId: Double? = nil, clientInfo: ClientInfo? = nil, initializationOptions: InitializationOptions? = nil) {
        self.processId = processId
        self.clientInfo = clientInfo
        self.initializationOptions = initializationOptions
    }
}

extension InitializeParams {
    /// The first rule these params break beyond their types, naming the field.
    public func validationError() -> String? {
        ParamRanges.processId.check(processId, field: "processId") ?? initializationOptions?.validationError()
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

/// Settings a client may choose; each absent one keeps the daemon's value
/// (command line, else default).
public struct InitializationOptions: Codable, Sendable, Equatable {
    public var allowPrivateNetwork: Bool?
    public var userAgent: String?
    /// Seconds (`ParamRanges.timeout`).
    public var timeout: Double?
    public var cacheDir: String?
    /// `ParamRanges.maxConcurrency`; read as a number so that `1.5` or `1e300`
    /// is refused by the range check, naming the field, not by the decoder.
    public var maxConcurrency: Double?
    // Real networks (issue 11).
    /// Name overrides, `HOST:PORT:ADDR` each (curl's `--resolve`); they
    /// replace the command line's list. Their syntax is checked by the daemon.
    public var resolve: [String]?
    /// A PEM file of CA certificates to trust instead of the system store.
    public var caFile: String?
    /// A directory of hashed CA certificates.
    public var caPath: String?
    /// The proxy URL for every request ("" for none); absent: the daemon's.
    public var proxy: String?
    /// Hosts that bypass the proxy, comma-separated.
    public var noProxy: String?
    /// Record and replay directories, the fallback switch and the fixed clock (`--record` & co.).
    public var record: String?
    public var replay: String?
    public var replayFallback: Bool?
    public var clock: String?

    public init(
        allowPrivateNetwork: Bool? = nil, userAgent: String? = nil, timeout: Double? = nil,
        cacheDir: String? = nil, maxConcurrency: Double? = nil
    ) {
        self.allowPrivateNetwork = allowPrivateNetwork
        self.userAgent = userAgent
        self.timeout = timeout
        self.cacheDir = cacheDir
        self.maxConcurrency = maxConcurrency
    }

    /// The first rule these options break, as a sentence naming the field.
    public func validationError() -> String? {
        ParamRanges.timeout.check(timeout, field: "initializationOptions.timeout")
            ?? ParamRanges.maxConcurrency.check(maxConcurrency, field: "initializationOptions.maxConcurrency")
    }
}
