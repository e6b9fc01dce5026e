import FoundationEssentials

/// Which proxy a URL goes through, the way curl users expect: one proxy per
/// scheme (`https_proxy`, `http_proxy`, else `all_proxy`; `--proxy` sets
/// both) and a `no_proxy` list of hosts that connect directly.
///
/// With a proxy the connect-time address check sees only the proxy, so the
/// engine checks the target itself before each hop (`HopCheck`); the proxy's
/// own address is the user's choice and is not checked.
public struct ProxyTable: Sendable, Equatable {
    /// Proxy URLs (`http://`, `https://`, `socks4://`, `socks4a://`,
    /// `socks5://`, `socks5h://`; no scheme means `http://`), nil for none.
    public var http: String?
    public var https: String?
    /// `no_proxy` entries: `*` (every host), a domain (matching itself and
    /// its subdomains; a leading dot is ignored), an IP address or a CIDR range.
    public var noProxy: [String]

    public init(http: String? = nil, https: String? = nil, noProxy: [String] = []) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    /// True when some URL would go through a proxy.
    public var isEmpty: Bool { (http ?? "").isEmpty && (https ?? "").isEmpty }

    /// The proxy `url` goes through, or nil to connect directly.
    public func proxy(for url: String) -> String? {
        guard let parsed = URL(string: url), let host = parsed.host else { return nil }
        let chosen = parsed.scheme?.lowercased() == "https" ? https : http
        guard let chosen, !chosen.isEmpty, !bypasses(host: host) else { return nil }
        return chosen
    }

    /// True when `host` is on the `no_proxy` list.
    public func bypasses(host: String) -> Bool {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let address = IPAddress(numericHost: host)
        for entry in noProxy {
            let entry = entry.filter { $0 != " " && $0 != "\t" }.lowercased()
            if entry == "*" { return true }
            if let address, let network = IPNetwork(entry), network.contains(address) { return true }
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if !domain.isEmpty, host == domain || host.hasSuffix("." + domain) { return true }
        }
        return false
    }

    /// Schemes a proxy URL may have.
    public static let schemes: Set<String> = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

    /// nil when `text` is a proxy URL curl can use (or "" for none), else
    /// a sentence naming `field`.
    public static func problem(_ text: String, field: String) -> String? {
        if text.isEmpty { return nil }
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let url = URL(string: withScheme), let scheme = url.scheme?.lowercased(),
            let host = url.host, !host.isEmpty
        else {
            return "\(field) must be a proxy URL such as http://proxy.example:3128 or socks5h://127.0.0.1:1080"
        }
        guard schemes.contains(scheme) else {
            return "\(field) has an unsupported proxy scheme \(scheme) (http, https, socks4, socks4a, socks5, socks5h)"
        }
        if let port = url.port, !(1...65535).contains(port) { return "\(field) port must be an integer from 1 to 65535" }
        return nil
    }
}
