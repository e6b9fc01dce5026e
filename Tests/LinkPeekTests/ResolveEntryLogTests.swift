import LogCapture
import Testing

@testable import LinkPeek

/// A library caller's `resolve` entry that does not parse is not used, and
/// the engine says so (the CLI and the daemon refuse it before).
struct ResolveEntryLogTests {
    @Test func aBadResolveEntryIsAWarningNamingItAndTheGoodOnesAreKept() {
        var settings = Settings()
        settings.resolve = ["a.test:443:127.0.0.1", "a.test:http:127.0.0.1"]
        let log = LogCapture()
        let engine = LinkPeekEngine(settings: settings, store: CacheStore(directory: nil), logger: log.logger(label: "linkpeek"))
        #expect(engine.nameOverrides.count == 1)
        let said = log.records("resolve entry ignored")
        #expect(said.map(\.level) == [.warning])
        #expect(said.first?.metadata["entry"] == "a.test:http:127.0.0.1")
        #expect(said.first?.metadata["problem"]?.hasPrefix("resolve ") == true)
    }
}
