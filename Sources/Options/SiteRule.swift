/// One `[[site]]` rule of the configuration file: what it matches and what
/// it changes for a request to a matching URL. Every hop is judged by its
/// own URL (page, redirect, icon, image, oEmbed), the first matching rule
/// wins, and the address policy stays above every rule.
public struct SiteRule: Sendable, Equatable, Codable {
    public var match: [SitePattern] = []
    public var userAgent: String?
    /// Extra request headers, name to value.
    public var headers: [String: String] = [:]
    /// Lets `headers` carry `Host`, `Cookie` or `Authorization`; only with
    /// `https://` patterns that name a host (no `*.`).
    public var allowCredentials = false
    public var acceptLanguage: String?
    public var proxy: String?
    /// Seconds for a transfer to a matching URL.
    public var timeout: Double?
    /// Seconds a preview is kept at least and at most.
    public var minTTL: Double?
    public var maxTTL: Double?
    /// Seconds a failure of each kind is kept.
    public var failureTTL: [FailureKind: Double] = [:]
    public var fetch: SiteFetch?
    /// Site engines on or off for matching URLs.
    public var sites: Bool?
    /// The token a site engine sends to its API.
    public var token: String?
    /// The file line of `[[site]]`, for `config explain`.
    public var line = 0

    public init() {}

    /// Whether this rule applies to a URL of `host`, `path`, `https`.
    public func matches(host: String, path: String, https: Bool) -> Bool {
        match.contains { $0.matches(host: host.lowercased(), path: path, https: https) }
    }

    /// What the rule sets, one "key = value" each, for `config explain`.
    public var changes: [String] {
        var lines: [String] = []
        if let userAgent { lines.append("userAgent = \(userAgent)") }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            let shown = Self.credentialHeaders.contains(name.lowercased()) ? "(hidden)" : value
            lines.append("headers.\(name) = \(shown)")
        }
        if allowCredentials { lines.append("allowCredentials = true") }
        if let acceptLanguage { lines.append("acceptLanguage = \(acceptLanguage)") }
        if let proxy { lines.append("proxy = \(proxy)") }
        if let timeout { lines.append("timeout = \(OptionValue.number(timeout).text)") }
        if let minTTL { lines.append("minTTL = \(OptionValue.number(minTTL).text)") }
        if let maxTTL { lines.append("maxTTL = \(OptionValue.number(maxTTL).text)") }
        for (kind, seconds) in failureTTL.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            lines.append("failureTTL.\(kind.rawValue) = \(OptionValue.number(seconds).text)")
        }
        if let fetch { lines.append("fetch = \(fetch.rawValue)") }
        if let sites { lines.append("sites = \(sites)") }
        if token != nil { lines.append("token = (hidden)") }
        return lines
    }

    /// Header names a rule sends only with `allowCredentials` to https hosts it names.
    public static let credentialHeaders: Set<String> = ["host", "cookie", "authorization"]
}

/// `fetch` of a `[[site]]` rule.
public enum SiteFetch: String, Sendable, Equatable, Codable, CaseIterable {
    case always, cacheOnly, never
}

/// The failure kinds `failureTTL` holds for: `rateLimited` is not one, it
/// is held for its `Retry-After` and never longer.
public enum FailureKind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case notFound, timedOut, serverError, blocked, dns
}

extension Array where Element == SiteRule {
    /// The first rule matching `url`, and its index; nil when none does.
    public func firstMatch(url: String) -> (index: Int, rule: SiteRule)? {
        guard let parts = URLParts(url) else { return nil }
        for (index, rule) in enumerated() where rule.matches(host: parts.host, path: parts.path, https: parts.https) {
            return (index, rule)
        }
        return nil
    }
}

/// The scheme, host and path of an http(s) URL, read without Foundation.
public struct URLParts: Sendable, Equatable {
    public let https: Bool
    public let host: String
    public let path: String

    public init?(_ url: String) {
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            https = true
            rest = Substring(url).dropFirst(8)
        } else if lower.hasPrefix("http://") {
            https = false
            rest = Substring(url).dropFirst(7)
        } else {
            return nil
        }
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<end]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        // The port goes; an IPv6 literal keeps its brackets.
        if authority.hasPrefix("[") {
            if let close = authority.firstIndex(of: "]") { authority = authority[...close] }
        } else if let colon = authority.firstIndex(of: ":") {
            authority = authority[..<colon]
        }
        host = authority.lowercased()
        let pathEnd = rest[end...].firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        let path = rest[end..<pathEnd]
        self.path = path.isEmpty ? "/" : String(path)
        guard !host.isEmpty else { return nil }
    }
}
