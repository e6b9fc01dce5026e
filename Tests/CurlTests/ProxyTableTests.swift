import Testing

@testable import Curl

/// Which proxy a URL goes through, and which hosts `no_proxy` sends direct.
struct ProxyTableTests {
    let table = ProxyTable(
        http: "http://p:3128", https: "socks5h://s:1080",
        noProxy: [".internal.test", "example.org", "10.0.0.0/8", "::1", " spaced.test "])

    @Test func choosesByScheme() {
        #expect(table.proxy(for: "http://a.test/") == "http://p:3128")
        #expect(table.proxy(for: "https://a.test/") == "socks5h://s:1080")
        #expect(ProxyTable(http: "http://p:1").proxy(for: "https://a.test/") == nil)
        #expect(ProxyTable().isEmpty && ProxyTable(http: "", https: "").isEmpty && !table.isEmpty)
    }

    @Test(arguments: [
        "http://internal.test/", "http://a.internal.test/", "https://example.org/", "https://www.example.org/x",
        "http://10.1.2.3/", "http://[::1]:8080/", "http://spaced.test/",
    ])
    func bypasses(url: String) {
        #expect(table.proxy(for: url) == nil)
    }

    @Test(arguments: ["http://notexample.org/", "http://example.org.evil.test/", "http://11.0.0.1/", "http://[::2]/"])
    func doesNotBypass(url: String) {
        #expect(table.proxy(for: url) != nil)
    }

    @Test func starBypassesEverything() {
        #expect(ProxyTable(http: "http://p:1", noProxy: ["*"]).proxy(for: "http://a.test/") == nil)
    }

    @Test func validatesProxyURLs() {
        for good in ["", "http://p:3128", "p:3128", "socks5h://127.0.0.1:1080", "https://u:pw@p.test"] {
            #expect(ProxyTable.problem(good, field: "--proxy") == nil, "\(good)")
        }
        for bad in ["ftp://p:21", "http://", "gopher://x", "http://p:99999"] {
            #expect(ProxyTable.problem(bad, field: "--proxy")?.hasPrefix("--proxy ") == true, "\(bad)")
        }
    }
}
