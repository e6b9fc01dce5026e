import Curl
import Options

/// The `[[site]]` rules on a transfer: the one place a rule changes a request.
enum SiteRules {
    /// `request` changed by the first rule matching its URL: user agent,
    /// headers (credential headers only as the file reader let them through:
    /// `allowCredentials` and https hosts the rule names), `Accept-Language`,
    /// proxy, timeout. The address policy is left as it is: no rule widens it.
    /// With rules, each redirect is judged by its own URL too (`HopRule`:
    /// the engine follows redirects itself, and credential headers stay
    /// with the first URL's origin).
    static func apply(_ rules: [SiteRule], to request: inout TransferRequest) {
        guard !rules.isEmpty else { return }
        let base = request
        request.hopRule = HopRule { url in
            var hop = base
            hop.url = url
            applyFirstMatch(rules, to: &hop)
            return hop
        }
        applyFirstMatch(rules, to: &request)
    }

    /// `request` changed by the first rule matching its URL, if any.
    private static func applyFirstMatch(_ rules: [SiteRule], to request: inout TransferRequest) {
        guard let (_, rule) = rules.firstMatch(url: request.url) else { return }
        if let userAgent = rule.userAgent { request.userAgent = userAgent }
        if let language = rule.acceptLanguage {
            request.headers.removeAll { $0.lowercased().hasPrefix("accept-language:") }
            if !language.isEmpty { request.headers.append("Accept-Language: \(language)") }
        }
        for (name, value) in rule.headers.sorted(by: { $0.key < $1.key }) {
            request.headers.removeAll { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            request.headers.append("\(name): \(value)")
        }
        if let proxy = rule.proxy { request.proxies = ProxyTable(http: proxy, https: proxy) }
        if let timeout = rule.timeout {
            request.timeout = timeout
            request.connectTimeout = min(request.connectTimeout, timeout)
        }
    }
}
