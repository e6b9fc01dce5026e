import Testing

@testable import Options

/// `[http]`: the HTTP front's keys in the file, the environment and the
/// merge, each checked where it comes in.
@Suite struct HTTPKeysTests {
    @Test func readsTheHTTPTable() {
        let file = ConfigFile.parse(Array("""
            [http]
            listen = "0.0.0.0:8080"
            tokenFile = "/etc/linkpeek/tokens"
            clientRate = 100
            maxConcurrent = 8
            maxQueue = 0
            requestTimeout = 2.5
            drainTimeout = 5
            logQuery = true
            accessLog = false
            """.utf8), path: "config.toml")
        #expect(file.problems == [])
        #expect(file.options.httpListen == "0.0.0.0:8080")
        #expect(file.options.httpTokenFile == "/etc/linkpeek/tokens")
        #expect(file.options.httpClientRate == 100)
        #expect(file.options.httpMaxConcurrent == 8)
        #expect(file.options.httpMaxQueue == 0)
        #expect(file.options.httpRequestTimeout == 2.5)
        #expect(file.options.httpDrainTimeout == 5)
        #expect(file.options.httpLogQuery == true)
        #expect(file.options.httpAccessLog == false)
    }

    @Test func eachBadValueIsOneSentenceWithItsLine() {
        let file = ConfigFile.parse(Array("""
            timeout = 3
            [http]
            listen = "example.com"
            clientRate = 0
            maxQueue = 1.5
            listn = "x"
            """.utf8), path: "config.toml")
        #expect(file.problems.map(\.description) == [
            "config.toml:3: http.listen must be ADDRESS:PORT (a port from 0 to 65535, [ADDRESS]:PORT for IPv6).",
            "config.toml:4: http.clientRate must be an integer from 1 to 100000.",
            "config.toml:5: http.maxQueue must be an integer from 0 to 100000.",
            "config.toml:6: http.listn is not a key of linkpeek (`linkpeek config keys` lists them).",
        ])
        #expect(file.options.timeout == 3)
        #expect(file.options.httpListen == nil)
    }

    @Test func httpMustBeATableOfItsKeys() {
        let file = ConfigFile.parse(Array("http = 1\n".utf8), path: "config.toml")
        #expect(file.problems.map(\.description) == [
            "config.toml:1: http must be a table of listen, tokenFile, noAuth, clientRate, maxConcurrent, maxQueue, requestTimeout, drainTimeout, logQuery and accessLog.",
        ])
    }

    /// A flag beats the environment, which beats the file.
    @Test func precedenceIsFlagThenEnvironmentThenFile() {
        var file = Options()
        file.httpListen = "127.0.0.1:1"
        file.httpClientRate = 3
        file.httpMaxQueue = 7
        let environment = Options.fromEnvironment(["LINKPEEK_HTTP_CLIENT_RATE": "4", "LINKPEEK_HTTP_MAX_QUEUE": "9"])
        #expect(environment.problems == [])
        var flags = Options()
        flags.httpClientRate = 5
        var layers = OptionLayers()
        layers.set(file, from: .file("config.toml"))
        layers.set(environment.options, from: .environment)
        layers.set(flags, from: .flag)
        let merged = layers.merged
        #expect(merged.httpClientRate == 5)
        #expect(merged.httpMaxQueue == 9)
        #expect(merged.httpListen == "127.0.0.1:1")
    }

    @Test func listenAddressesParse() {
        #expect(ListenAddress.parse("127.0.0.1:8080").map { $0 == ("127.0.0.1", 8080) } == true)
        #expect(ListenAddress.parse("8080").map { $0 == ("127.0.0.1", 8080) } == true)
        #expect(ListenAddress.parse("[::1]:0").map { $0 == ("::1", 0) } == true)
        for bad in ["", ":", "host:", "host:65536", "::1:80", "[::1]80"] {
            #expect(ListenAddress.parse(bad) == nil, "\(bad)")
        }
    }
}
