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
    /// Only `general.positionEncodings` and `textDocument.hover.contentFormat`
    /// are read; everything else is ignored.
    public var capabilities: ClientCapabilities?

    public init(
        processId: Double? = nil, clientInfo: ClientInfo? = nil, initializationOptions: InitializationOptions? = nil,
        capabilities: ClientCapabilities? = nil
    ) {
        self.processId = processId
        self.clientInfo = clientInfo
        self.initializationOptions = initializationOptions
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
    /// The cache directory; see `cache`.
    public var cacheDir: String?
    /// What `cacheDir` said: absent (nil here too), a directory, or an
    /// explicit `null`, which keeps the cache in memory.
    public var cache: CacheChoice?
    /// MiB (`ParamRanges.cacheSize`).
    public var cacheSize: Double?
    /// `ParamRanges.maxConcurrency`; read as a number so that `1.5` or `1e300`
    /// is refused by the range check, naming the field, not by the decoder.
    public var maxConcurrency: Double?
    /// Seconds a hover waits for a fetch (`ParamRanges.hoverTimeout`); default 1.5.
    public var hoverTimeout: Double?
    /// Fetch the URLs of opened documents ahead of hovers; default false.
    public var prefetch: Bool?
    /// Show the preview image in hover cards; default true.
    public var hoverImages: Bool?
    /// `hover.fetch`, `hover.allow`, `hover.deny`: whether a hover may fetch.
    public var hover: HoverOptions?
    /// `Accept-Language` for requests that name none ("" for none); absent:
    /// the daemon's (`--accept-language`, else its locale). Editors pass theirs.
    public var acceptLanguage: String?

    // Real networks: name overrides, CA certificates, proxies, recording.
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
    /// oEmbed (the bundled provider list and discovery); default true. False is `--no-oembed`.
    public var oembed: Bool?
    /// Site engines: false turns all off, a list of names turns those off (`--no-sites`).
    public var sites: SitesOption?
    /// Hosts that run GitLab besides gitlab.com (`--gitlab-host`).
    public var gitlabHosts: [String]?

    // Fleet mode.
    /// `redis://[user:password@]host:port[/db]` (the daemon checks it): the fleet's shared Redis.
    public var fleet: String?
    /// Requests per second to one host for the whole fleet, 1 to 10,000 (the daemon checks it).
    public var fleetOriginRate: Double?

    public enum CacheChoice: Sendable, Equatable {
        case directory(String)
        case memoryOnly
    }

    public init(
        allowPrivateNetwork: Bool? = nil, userAgent: String? = nil, timeout: Double? = nil,
        cacheDir: String? = nil, maxConcurrency: Double? = nil, cacheSize: Double? = nil, memoryOnly: Bool = false,
        hoverTimeout: Double? = nil, prefetch: Bool? = nil, hoverImages: Bool? = nil
    ) {
        self.hoverTimeout = hoverTimeout
        self.prefetch = prefetch
        self.hoverImages = hoverImages
        self.allowPrivateNetwork = allowPrivateNetwork
        self.userAgent = userAgent
        self.timeout = timeout
        self.cacheDir = cacheDir
        self.cache = memoryOnly ? .memoryOnly : cacheDir.map(CacheChoice.directory)
        self.maxConcurrency = maxConcurrency
        self.cacheSize = cacheSize
    }

    private enum CodingKeys: String, CodingKey {
        case allowPrivateNetwork, userAgent, timeout, cacheDir, cacheSize, maxConcurrency
        case hoverTimeout, prefetch, hoverImages, hover
        case resolve, caFile, caPath, proxy, noProxy, record, replay, replayFallback, clock
        case oembed, sites, gitlabHosts
        case acceptLanguage
        case fleet, fleetOriginRate
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        allowPrivateNetwork = try container.decodeIfPresent(Bool.self, forKey: .allowPrivateNetwork)
        userAgent = try container.decodeIfPresent(String.self, forKey: .userAgent)
        timeout = try container.decodeIfPresent(Double.self, forKey: .timeout)
        cacheDir = try container.decodeIfPresent(String.self, forKey: .cacheDir)
        // `"cacheDir": null` is a choice (memory only), unlike leaving it out.
        if container.contains(.cacheDir), try container.decodeNil(forKey: .cacheDir) {
            cache = .memoryOnly
        } else {
            cache = cacheDir.map(CacheChoice.directory)
        }
        cacheSize = try container.decodeIfPresent(Double.self, forKey: .cacheSize)
        maxConcurrency = try container.decodeIfPresent(Double.self, forKey: .maxConcurrency)
        hoverTimeout = try container.decodeIfPresent(Double.self, forKey: .hoverTimeout)
        prefetch = try container.decodeIfPresent(Bool.self, forKey: .prefetch)
        hoverImages = try container.decodeIfPresent(Bool.self, forKey: .hoverImages)
        hover = try container.decodeIfPresent(HoverOptions.self, forKey: .hover)
        resolve = try container.decodeIfPresent([String].self, forKey: .resolve)
        caFile = try container.decodeIfPresent(String.self, forKey: .caFile)
        caPath = try container.decodeIfPresent(String.self, forKey: .caPath)
        proxy = try container.decodeIfPresent(String.self, forKey: .proxy)
        noProxy = try container.decodeIfPresent(String.self, forKey: .noProxy)
        record = try container.decodeIfPresent(String.self, forKey: .record)
        replay = try container.decodeIfPresent(String.self, forKey: .replay)
        replayFallback = try container.decodeIfPresent(Bool.self, forKey: .replayFallback)
        clock = try container.decodeIfPresent(String.self, forKey: .clock)
        oembed = try container.decodeIfPresent(Bool.self, forKey: .oembed)
        sites = try container.decodeIfPresent(SitesOption.self, forKey: .sites)
        gitlabHosts = try container.decodeIfPresent([String].self, forKey: .gitlabHosts)
        acceptLanguage = try container.decodeIfPresent(String.self, forKey: .acceptLanguage)
        fleet = try container.decodeIfPresent(String.self, forKey: .fleet)
        fleetOriginRate = try container.decodeIfPresent(Double.self, forKey: .fleetOriginRate)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(allowPrivateNetwork, forKey: .allowPrivateNetwork)
        try container.encodeIfPresent(userAgent, forKey: .userAgent)
        try container.encodeIfPresent(timeout, forKey: .timeout)
        switch cache {
        case .directory(let path)?: try container.encode(path, forKey: .cacheDir)
        case .memoryOnly?: try container.encodeNil(forKey: .cacheDir)
        case nil: break
        }
        try container.encodeIfPresent(cacheSize, forKey: .cacheSize)
        try container.encodeIfPresent(maxConcurrency, forKey: .maxConcurrency)
        try container.encodeIfPresent(hoverTimeout, forKey: .hoverTimeout)
        try container.encodeIfPresent(prefetch, forKey: .prefetch)
        try container.encodeIfPresent(hoverImages, forKey: .hoverImages)
        try container.encodeIfPresent(hover, forKey: .hover)
        try container.encodeIfPresent(resolve, forKey: .resolve)
        try container.encodeIfPresent(caFile, forKey: .caFile)
        try container.encodeIfPresent(caPath, forKey: .caPath)
        try container.encodeIfPresent(proxy, forKey: .proxy)
        try container.encodeIfPresent(noProxy, forKey: .noProxy)
        try container.encodeIfPresent(record, forKey: .record)
        try container.encodeIfPresent(replay, forKey: .replay)
        try container.encodeIfPresent(replayFallback, forKey: .replayFallback)
        try container.encodeIfPresent(clock, forKey: .clock)
        try container.encodeIfPresent(oembed, forKey: .oembed)
        try container.encodeIfPresent(sites, forKey: .sites)
        try container.encodeIfPresent(gitlabHosts, forKey: .gitlabHosts)
        try container.encodeIfPresent(acceptLanguage, forKey: .acceptLanguage)
        try container.encodeIfPresent(fleet, forKey: .fleet)
        try container.encodeIfPresent(fleetOriginRate, forKey: .fleetOriginRate)
    }

    /// The first rule these options break, as a sentence naming the field.
    public func validationError() -> String? {
        ParamRanges.timeout.check(timeout, field: "initializationOptions.timeout")
            ?? ParamRanges.maxConcurrency.check(maxConcurrency, field: "initializationOptions.maxConcurrency")
            ?? ParamRanges.cacheSize.check(cacheSize, field: "initializationOptions.cacheSize")
            ?? (cacheDir == "" ? "initializationOptions.cacheDir must not be empty" : nil)
            ?? ParamRanges.hoverTimeout.check(hoverTimeout, field: "initializationOptions.hoverTimeout")
            ?? ParamRanges.checkHeaderValue(acceptLanguage, field: "initializationOptions.acceptLanguage")
            ?? hover?.validationError()
    }
}

/// `initializationOptions.hover`: the configuration file's `[hover]` keys.
public struct HoverOptions: Codable, Sendable, Equatable {
    /// "always", "allowList" or "cacheOnly".
    public var fetch: String?
    /// Host patterns (`example.com`, `*.example.com`).
    public var allow: [String]?
    public var deny: [String]?

    public init(fetch: String? = nil, allow: [String]? = nil, deny: [String]? = nil) {
        self.fetch = fetch
        self.allow = allow
        self.deny = deny
    }

    /// The first rule these break beyond their types, naming the field
    /// (patterns are checked by the daemon, which knows their syntax).
    func validationError() -> String? {
        guard let fetch, !["always", "allowList", "cacheOnly"].contains(fetch) else { return nil }
        return "initializationOptions.hover.fetch must be one of \"always\", \"allowList\", \"cacheOnly\""
    }
}
