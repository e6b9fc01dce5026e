import JSON
import Metadata

/// One site's API: which links it answers, the request to make for one, and
/// how its answer becomes a preview. Engines are pure: the engine in
/// `LinkPeek` makes the request through its own transfer path and falls
/// back to the page on anything but a usable answer.
public protocol SiteEngine: Sendable {
    /// The engine's name, as `site.engine`, `linkpeek sites` and the switches spell it.
    var name: String { get }
    /// The URL shapes it answers, for `linkpeek sites`.
    var shapes: [String] { get }
    /// The API request for `url`, or nil when the link is not one of the engine's shapes.
    func request(for url: SiteURL) -> SiteRequest?
    /// The preview of `pageURL` from a 2xx answer's JSON, or nil for an
    /// answer that is not what the API gives (the page is read instead).
    func read(_ answer: JSONValue, for request: SiteRequest, pageURL: String) -> SiteReading?
    /// The same from the answer's bytes: JSON parsed and read by the above,
    /// unless the engine's API answers in another format (arXiv's Atom).
    func read(bytes: [UInt8], for request: SiteRequest, pageURL: String) -> SiteReading?
    /// How long the API asks not to be called again after an answer with
    /// `status` and header fields `field` (by lowercased name), or nil.
    /// `now`: seconds since 1970.
    func hold(status: Int, field: (String) -> String?, now: Double) -> Int?
    /// How long an error answer's body (a non-2xx status, or one the engine
    /// could not read) asks the API to be left alone, or nil.
    func hold(errorAnswer bytes: [UInt8]) -> Int?
    /// Second requests for facts the first answer lacks (a repository's
    /// latest release, a commit's checks, a package's release date), made
    /// after `reading` under the same rules and limits as the first. A
    /// follow-up that fails leaves its facts out; the reading stands.
    func followUps(after reading: SiteReading, for request: SiteRequest) -> [SiteRequest]
    /// `reading` with what a follow-up's 2xx answer adds; unchanged when
    /// the answer is not what the API gives.
    func add(_ bytes: [UInt8], of followUp: SiteRequest, to reading: inout SiteReading)
}

extension SiteEngine {
    public func hold(status: Int, field: (String) -> String?, now: Double) -> Int? { nil }

    public func hold(errorAnswer bytes: [UInt8]) -> Int? { nil }

    public func read(bytes: [UInt8], for request: SiteRequest, pageURL: String) -> SiteReading? {
        guard case .success(let json) = JSONParser.parse(bytes) else { return nil }
        return read(json, for: request, pageURL: pageURL)
    }

    public func read(_ answer: JSONValue, for request: SiteRequest, pageURL: String) -> SiteReading? { nil }

    public func followUps(after reading: SiteReading, for request: SiteRequest) -> [SiteRequest] { [] }

    public func add(_ bytes: [UInt8], of followUp: SiteRequest, to reading: inout SiteReading) {}
}

/// An API request an engine names.
public struct SiteRequest: Sendable, Equatable {
    public var engine: String
    /// The API URL; it never carries a token.
    public var url: String
    /// What the URL names (`SiteInfo.kind`).
    public var kind: String
    /// Extra header lines (an `Accept` the API wants).
    public var headers: [String] = []
    /// The token that may go with the request, by its setting's name
    /// (`github`, `gitlab`): only over https, only to `tokenHost`.
    public var token: String?
    public var tokenHost: String?
    /// Parts of the link the mapping needs (owner and name, number, path…).
    public var parts: [String: String] = [:]
    /// The longest answer used, when not the engine's usual limit (a whole npm packument).
    public var maximumBytes: Int?
    /// A JSON body to POST (a GraphQL query); nil for a GET.
    public var body: [UInt8]?
    /// The API answers only with the token: without one the link is not
    /// the engine's (its page is read).
    public var requiresToken = false

    public init(engine: String, url: String, kind: String) {
        self.engine = engine
        self.url = url
        self.kind = kind
    }
}

/// A preview read from an API answer, and how long the API asked to be left alone.
public struct SiteReading: Sendable {
    public var metadata: LinkMetadata
    public var holdSeconds: Int?

    public init(metadata: LinkMetadata, holdSeconds: Int? = nil) {
        self.metadata = metadata
        self.holdSeconds = holdSeconds
    }
}

/// The engines linkpeek has, in the order they are asked.
public enum SiteEngines {
    public static func all(gitlabHosts: [String] = []) -> [any SiteEngine] {
        [
            GitHubEngine(), StackExchangeEngine(), WikipediaEngine(), ArxivEngine(), PyPIEngine(), NpmEngine(), CratesEngine(),
            GitLabEngine(hosts: gitlabHosts),
        ]
    }

    /// The first engine (of those not turned off) with a request for `url`.
    public static func request(
        for url: String, engines: [any SiteEngine]
    ) -> (engine: any SiteEngine, request: SiteRequest)? {
        guard let parsed = SiteURL.parse(url) else { return nil }
        for engine in engines {
            if let request = engine.request(for: parsed) { return (engine, request) }
        }
        return nil
    }
}

extension JSONValue {
    /// A whole number that fits an `Int`, written as an integer or a double.
    var wholeNumber: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// A boolean.
    var flag: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// A non-empty string.
    var text: String? {
        guard case .string(let text) = self, !text.isEmpty else { return nil }
        return text
    }
}
