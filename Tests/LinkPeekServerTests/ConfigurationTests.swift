import JSONRPC
import LinkPeek
@testable import LinkPeekServer
import LinkPeekTestSupport
import Options
import Synchronization
import Testing

/// The client's layer of options: `initializationOptions` and
/// `workspace/didChangeConfiguration` read as one `Options` layer, merged,
/// and placed by precedence (flag > client > environment > file > default).
@Suite struct ConfigurationTests {
    @Test func theClientSendsTheKeysOfTheOptionsTableByTheirNames() throws {
        let read = try Options.client([
            "timeout": 5, "userAgent": "client/1", "hover": ["fetch": "cacheOnly", "deny": ["*.example.com"]],
            "cacheDir": nil, "allowNetwork": ["10.1.2.3/32"], "clock": "2026-01-01T00:00:00Z", "notAKey": 1,
        ], field: "initializationOptions").get()
        #expect(read.options.timeout == 5)
        #expect(read.options.userAgent == "client/1")
        #expect(read.options.hoverFetch == .cacheOnly)
        #expect(read.options.hoverDeny == ["*.example.com"])
        // `cacheDir: null` is the memory-only choice, not an absent key.
        #expect(read.options.cache == false)
        #expect(read.options.cacheDir == nil)
        #expect(read.options.allowNetwork == ["10.1.2.3/32"])
        #expect(read.clock == "2026-01-01T00:00:00Z")
        #expect(try Options.client(nil, field: "initializationOptions").get() == ClientOptions())
        let directory = try Options.client(["cacheDir": "/var/cache/x"], field: "initializationOptions").get().options
        #expect((directory.cacheDir, directory.cache) == ("/var/cache/x", true))
    }

    @Test(arguments: [
        (["prefetch": "yes"], "initializationOptions.prefetch must be a boolean"),
        (["resolve": ["a.test:1:127.0.0.1", 3]], "initializationOptions.resolve[1] must be a string"),
        (["hover": "off"], "initializationOptions.hover must be an object"),
        (["hover": ["fetch": "sometimes"]], #"initializationOptions.hover.fetch must be one of "always", "allowList", "cacheOnly""#),
        (["cacheSize": 0], "initializationOptions.cacheSize must be an integer from 1 to 1048576 (MiB)"),
        (["allowNetwork": ["the office"]], "initializationOptions.allowNetwork must be addresses or CIDR ranges such as 10.1.2.3/32"),
        (["userAgent": "two\nlines"], "initializationOptions.userAgent must be one line"),
        (["replayFallback": 1], "initializationOptions.replayFallback must be a boolean"),
        (
            ["http": ["listen": "127.0.0.1:8080"]],
            "initializationOptions.http.listen is set by serve --http's flags, LINKPEEK_HTTP_* or [http] in the file, not by a client"
        ),
    ] as [(JSONValue, String)])
    func aBadValueIsRefusedNamingItsField(options: JSONValue, message: String) {
        #expect(throws: ResponseError.invalidParams(message)) {
            try Options.client(options, field: "initializationOptions").get()
        }
    }

    @Test func aChangeIsMergedIntoTheOneClientLayer() throws {
        let first = try Options.client(["userAgent": "client/1", "timeout": 5, "replay": nil], field: "settings").get()
        let change = try Options.client(["timeout": 9, "prefetch": true], field: "settings").get()
        let merged = change.merged(over: first)
        #expect(merged.options.userAgent == "client/1")
        #expect(merged.options.timeout == 9)
        #expect(merged.options.prefetch == true)
    }

    /// Every source set at once, in a session: each key takes the highest
    /// source that sets it; the engine is made again only when the settings
    /// change, and the new one is given the one it replaces.
    @Test func precedenceInASessionAndOneEnginePerChangeOfSettings() async throws {
        var layers = OptionLayers()
        layers.set(Self.options(["timeout": 7]), from: .flag)
        layers.set(Self.options(["userAgent": "env/1", "hoverTimeout": 3]), from: .environment)
        layers.set(Self.options(["userAgent": "file/1", "hoverTimeout": 4, "maxConcurrency": 8]), from: .file("config.toml"))
        let made = Mutex<[(userAgent: String, timeout: Double, replaces: Bool)]>([])
        let client = try TestClient(configuration: ConfigurationLoad(layers: layers)) { settings, predecessor in
            made.withLock { $0.append((settings.userAgent, settings.timeout, predecessor != nil)) }
            return FakeService()
        }
        let answer = try await client.request(1, "initialize", [
            "initializationOptions": ["timeout": 5, "userAgent": "client/1", "hoverTimeout": 2],
        ])
        let settings = answer["result"]?["settings"]
        #expect(settings?["timeout"] == 7)  // the flag beats the client
        #expect(settings?["userAgent"] == "client/1")  // the client beats the environment and the file
        #expect(settings?["hoverTimeout"] == 2)
        #expect(settings?["maxConcurrency"] == 8)  // the file, where nothing above sets it
        #expect(settings?["prefetch"] == false)  // the default

        _ = try await client.request(2, "getCached", ["url": "https://a.test/"])
        // The flag still wins, so nothing changes and the engine stays.
        client.notify("workspace/didChangeConfiguration", ["settings": ["timeout": 9]])
        _ = try await client.request(3, "getCached", ["url": "https://a.test/"])
        #expect(made.withLock { $0.count } == 1)

        client.notify("workspace/didChangeConfiguration", ["settings": ["userAgent": "client/2"]])
        _ = try await client.request(4, "getCached", ["url": "https://a.test/"])
        let engines = made.withLock { $0 }
        #expect(engines.map(\.userAgent) == ["client/1", "client/2"])
        #expect(engines.map(\.timeout) == [7, 7])
        #expect(engines.map(\.replaces) == [false, true])
        #expect(try await client.shutdownAndExit() == 0)
    }

    private static func options(_ json: JSONValue) -> Options {
        (try? Options.client(json, field: "test").get().options) ?? Options()
    }
}
