import FoundationEssentials
import TextTrimming

/// Settings chosen per hop: when a request carries a `HopRule`, the engine
/// follows its redirects itself (as it does through a proxy) and sends each
/// hop as the rule says for that hop's own URL — user agent, headers, proxy,
/// timeout — instead of repeating the first URL's.
///
/// Whatever the rule says, credential headers (`Authorization`, `Cookie`,
/// `Host`) go only to the first URL's origin (scheme, host, port): a
/// redirect to another origin never carries them. The address policy, name
/// overrides, CAs and byte cap stay the first request's.
public struct HopRule: Sendable {
    private let build: @Sendable (_ url: String) -> TransferRequest

    /// `build(url)`: the request a hop to `url` is sent as (its `url`,
    /// `userAgent`, `headers`, `proxies`, `timeout`, `connectTimeout` are used).
    public init(_ build: @escaping @Sendable (_ url: String) -> TransferRequest) {
        self.build = build
    }

    /// Header names that go only to the first URL's origin.
    static let credentialHeaders: Set<String> = ["authorization", "cookie", "host"]

    /// The request for the hop to `url` after the hop sent as `current`, of
    /// a transfer that started at `firstURL`.
    func request(for url: String, after current: TransferRequest, firstURL: String) -> TransferRequest {
        let rule = build(url)
        var hop = current
        hop.url = url
        hop.userAgent = rule.userAgent
        hop.proxies = rule.proxies
        hop.timeout = rule.timeout
        hop.connectTimeout = rule.connectTimeout
        let sameOrigin = Self.origin(url) != nil && Self.origin(url) == Self.origin(firstURL)
        hop.headers = sameOrigin ? rule.headers : rule.headers.filter { !Self.isCredential($0) }
        return hop
    }

    /// Whether `header` (`Name: value`) is one that carries credentials.
    static func isCredential(_ header: String) -> Bool {
        let name = String(header.prefix { $0 != ":" }).trimmedSpaces.lowercased()
        return credentialHeaders.contains(name)
    }

    /// Scheme, host and port of `url` (the default port made explicit), or nil.
    static func origin(_ url: String) -> String? {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            let host = parsed.host?.lowercased(), !host.isEmpty
        else { return nil }
        let port = parsed.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }
}
