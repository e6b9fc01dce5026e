import Testing

@testable import Curl

/// Tier 1: what a `HopRule` makes of a redirect's request. The rule's
/// settings are the hop's own; credential headers go to the first URL's
/// origin (scheme, host, port) only.
struct HopRuleTests {
    /// A rule that names the hop's host in its user agent and always asks for a token and a marker.
    let rule = HopRule { url in
        let host = url.split(separator: "/").dropFirst().first.map(String.init) ?? ""
        var request = TransferRequest(url: url, userAgent: "agent-\(host)", timeout: 7, connectTimeout: 3)
        request.headers = ["Authorization: Bearer secret", "cookie: a=1", "X-Marker: \(host)"]
        request.proxies = ProxyTable(http: "http://proxy.test:3128", https: "http://proxy.test:3128")
        return request
    }
    let first = TransferRequest(
        url: "https://a.example/start", userAgent: "first", timeout: 30,
        policy: AddressPolicy(allowPrivateNetwork: true), maxBytes: 1234)

    @Test func aHopOnTheSameOriginGetsTheRulesHeadersWithCredentials() {
        let hop = rule.request(for: "https://a.example:443/next", after: first, firstURL: first.url)
        #expect(hop.url == "https://a.example:443/next")
        #expect(hop.userAgent == "agent-a.example:443")
        #expect(hop.headers == ["Authorization: Bearer secret", "cookie: a=1", "X-Marker: a.example:443"])
        #expect(hop.timeout == 7 && hop.connectTimeout == 3)
        #expect(hop.proxies.proxy(for: hop.url) == "http://proxy.test:3128")
        // What the rule does not choose stays the first request's.
        #expect(hop.maxBytes == 1234 && hop.policy.allowPrivateNetwork)
    }

    @Test(arguments: ["https://b.example/next", "http://a.example/next", "https://a.example:8443/next"])
    func aHopToAnotherOriginGetsNoCredentialHeaders(url: String) {
        let hop = rule.request(for: url, after: first, firstURL: first.url)
        #expect(hop.headers.count == 1)
        #expect(hop.headers.first?.hasPrefix("X-Marker: ") == true)
    }

    @Test func credentialNamesAreMatchedWithoutCase() {
        #expect(HopRule.isCredential("AUTHORIZATION: x"))
        #expect(HopRule.isCredential("Host : b"))
        #expect(!HopRule.isCredential("X-Authorization: x"))
    }
}
