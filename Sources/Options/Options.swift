import LinkPeekProtocol

/// Every preference of linkpeek, each optional: one layer of them (the
/// flags, a client's `initializationOptions`, the environment, the
/// configuration file). `OptionLayers` merges layers by precedence and says
/// where each value in effect came from; the engine's `Settings` and the
/// daemon's editor settings read the merged value. `OptionKey.all` names,
/// bounds and documents each field: a new preference is a field here and a
/// row there (and its line in the docs, generated from that row).
public struct Options: Sendable, Equatable, Codable {
    public var allowPrivateNetwork: Bool?
    /// CIDR ranges allowed all the same (`--allow-network`).
    public var allowNetwork: [String]?
    public var userAgent: String?
    /// Seconds (`ParamRanges.timeout`).
    public var timeout: Double?
    /// Whole number (`ParamRanges.maxConcurrency`).
    public var maxConcurrency: Double?
    public var cacheDir: String?
    /// False keeps previews in memory only.
    public var cache: Bool?
    /// MiB (`ParamRanges.cacheSize`).
    public var cacheSize: Double?
    /// "" for none.
    public var acceptLanguage: String?
    public var resolve: [String]?
    public var caFile: String?
    public var caPath: String?
    /// "" for none.
    public var proxy: String?
    public var noProxy: String?
    public var oembed: Bool?
    public var fleet: String?
    /// Whole number, 1 to 10,000.
    public var fleetOriginRate: Double?
    /// Seconds (`ParamRanges.hoverTimeout`).
    public var hoverTimeout: Double?
    public var prefetch: Bool?
    public var hoverImages: Bool?
    /// `hover.fetch`: whether a hover may fetch.
    public var hoverFetch: HoverFetch?
    /// `hover.allow` / `hover.deny`: host patterns (`SitePattern`).
    public var hoverAllow: [String]?
    public var hoverDeny: [String]?
    /// Site engines: false turns them all off, a list of names turns those off.
    public var sites: SitesOption?
    /// Hosts that run GitLab besides gitlab.com.
    public var gitlabHosts: [String]?
    /// The configuration file's `[[site]]` rules, first match wins.
    public var siteRules: [SiteRule]?
    /// `[http]`: the HTTP front of `serve` (`OptionKey.httpKeys`).
    public var httpListen: String?
    public var httpTokenFile: String?
    public var httpNoAuth: Bool?
    public var httpClientRate: Double?
    public var httpMaxConcurrent: Double?
    public var httpMaxQueue: Double?
    public var httpRequestTimeout: Double?
    public var httpDrainTimeout: Double?
    public var httpLogQuery: Bool?
    public var httpAccessLog: Bool?

    public init() {}

    /// The value of `key` in this layer, nil when the layer leaves it out.
    public subscript(key: OptionKey) -> OptionValue? {
        get { key.value(self) }
        set { key.assign(&self, newValue) }
    }

    /// This layer, with what it leaves out taken from `lower`.
    public func merged(over lower: Options) -> Options {
        var result = self
        for key in OptionKey.all where key.value(self) == nil {
            key.assign(&result, key.value(lower))
        }
        if result.siteRules == nil { result.siteRules = lower.siteRules }
        return result
    }
}

/// `hover.fetch`: what a hover over a URL may do.
public enum HoverFetch: String, Sendable, Equatable, Codable, CaseIterable {
    /// Fetch any URL not cached (the default).
    case always
    /// Fetch only hosts `hover.allow` lists (and `hover.deny` does not).
    case allowList
    /// Never fetch: show what is cached, else a one-line card.
    case cacheOnly
}

extension Options {
    /// Whether a hover over `host` may fetch, by `hover.fetch`,
    /// `hover.allow` and `hover.deny` (a denied host never is).
    public func hoverMayFetch(host: String) -> Bool {
        let host = host.lowercased()
        if let deny = hoverDeny, deny.contains(where: { SitePattern($0)?.matches(host: host) == true }) { return false }
        switch hoverFetch ?? .always {
        case .always: return true
        case .cacheOnly: return false
        case .allowList: return hoverAllow?.contains { SitePattern($0)?.matches(host: host) == true } ?? false
        }
    }
}
