import Testing

@testable import Options

@Suite struct OptionLayersTests {
    /// All five sources set at once: each key shows the highest one that sets it.
    @Test func precedenceFlagClientEnvironmentFileDefault() {
        var flag = Options()
        flag.timeout = 1
        var client = Options()
        client.timeout = 2
        client.userAgent = "client"
        let environment = Options.fromEnvironment([
            "LINKPEEK_TIMEOUT": "3", "LINKPEEK_USER_AGENT": "env", "LINKPEEK_ACCEPT_LANGUAGE": "de",
        ])
        #expect(environment.problems == [])
        var file = Options()
        file.timeout = 4
        file.userAgent = "file"
        file.acceptLanguage = "fr"
        file.cacheSize = 10
        var layers = OptionLayers()
        layers.set(file, from: .file("c.toml"))
        layers.set(flag, from: .flag)
        layers.set(environment.options, from: .environment)
        layers.set(client, from: .client)
        let merged = layers.merged
        #expect(merged.timeout == 1)
        #expect(merged.userAgent == "client")
        #expect(merged.acceptLanguage == "de")
        #expect(merged.cacheSize == 10)
        #expect(merged.maxConcurrency == nil)
        let shown = Dictionary(uniqueKeysWithValues: layers.inEffect().map { ($0.key.name, "\($0.value) \($0.source)") })
        #expect(shown["timeout"] == "1 flag")
        #expect(shown["userAgent"] == "client initializationOptions")
        #expect(shown["acceptLanguage"] == "de environment")
        #expect(shown["cacheSize"] == "10 c.toml")
        #expect(shown["maxConcurrency"] == "64 default")
    }

    @Test func environmentProblemsNameTheVariable() {
        let read = Options.fromEnvironment(["LINKPEEK_TIMEOUT": "soon", "LINKPEEK_HOVER_FETCH": "never", "LINKPEEK_PREFETCH": "yes"])
        #expect(read.problems.sorted() == [
            "LINKPEEK_HOVER_FETCH: hover.fetch must be one of \"always\", \"allowList\", \"cacheOnly\".",
            "LINKPEEK_TIMEOUT: timeout must be a number from 0.001 to 3600 (seconds).",
        ])
        #expect(read.options.prefetch == true)
    }

    @Test func oneXDGRule() {
        #expect(XDG.cacheDirectory(["HOME": "/home/a"]) == "/home/a/.cache/linkpeek")
        #expect(XDG.cacheDirectory(["HOME": "/home/a", "XDG_CACHE_HOME": "/x"]) == "/x/linkpeek")
        #expect(XDG.cacheDirectory(["XDG_CACHE_HOME": "relative"]) == "/tmp/.cache/linkpeek")
        #expect(XDG.configFile(["HOME": "/home/a"]) == "/home/a/.config/linkpeek/config.toml")
    }

    @Test func patternsAndFirstMatchingRule() {
        #expect(SitePattern("*.example.com")?.matches(host: "a.example.com") == true)
        #expect(SitePattern("*.example.com")?.matches(host: "example.com") == false)
        #expect(SitePattern("*.example.com")?.matches(host: "badexample.com") == false)
        #expect(SitePattern("example.com/docs")?.matches(host: "example.com", path: "/docs/a") == true)
        #expect(SitePattern("example.com/docs")?.matches(host: "example.com", path: "/blog") == false)
        #expect(SitePattern("https://example.com")?.matches(host: "example.com", https: false) == false)
        for bad in ["", "*.", "http://x", "a b", "ex*ample.com", ".example.com", "example.com.", "é.com", "a.com/ü",
            "a:1.com", String(repeating: "a", count: 301)]
        {
            #expect(SitePattern(bad) == nil, "\(bad)")
        }
        let upper = SitePattern("HTTPS://*.Example.COM/Docs")
        #expect(upper?.host == "example.com" && upper?.subdomains == true && upper?.httpsOnly == true && upper?.pathPrefix == "/docs")
        #expect(SitePattern("[::1]/a")?.host == "[::1]")
        // U+212A KELVIN SIGN lower-cases to "k": the pattern is read after lower-casing.
        #expect(SitePattern("\u{212A}.com")?.host == "k.com")
        var first = SiteRule()
        first.match = [SitePattern("example.com/a")].compactMap { $0 }
        var second = SiteRule()
        second.match = [SitePattern("example.com")].compactMap { $0 }
        let rules = [first, second]
        #expect(rules.firstMatch(url: "https://EXAMPLE.com:8080/a/b?q")?.index == 0)
        #expect(rules.firstMatch(url: "http://user@example.com/b")?.index == 1)
        #expect(rules.firstMatch(url: "https://other.com/") == nil)
    }

    @Test func hoverFetchModes() {
        var options = Options()
        #expect(options.hoverMayFetch(host: "a.com"))
        options.hoverDeny = ["a.com"]
        #expect(!options.hoverMayFetch(host: "a.com"))
        options.hoverFetch = .allowList
        options.hoverAllow = ["*.b.com"]
        #expect(options.hoverMayFetch(host: "x.b.com"))
        #expect(!options.hoverMayFetch(host: "c.com"))
        options.hoverFetch = .cacheOnly
        #expect(!options.hoverMayFetch(host: "x.b.com"))
    }
}
