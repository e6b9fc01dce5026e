import Foundation
import JSONRPC
import LinkPeekTestSupport
import Options
import Testing

@testable import LinkPeek

/// `CacheLookupsPerRequestTests` for the LSP hover: a hover builds its key
/// once and asks memory, then the disk, then the fleet once each
/// (`cachedPreview`); a miss carries what was found into the background
/// fetch, and a stale preview is served without asking any level again.
/// Counted by the engine's `CacheCounters`, per level asked.
final class HoverCacheLookupsTests {
    let levels: ThreeLevelCache

    init() throws {
        levels = try ThreeLevelCache(name: "hover-lookups")
    }

    /// Refused by the address policy: a miss ends without any network.
    let url = ThreeLevelCache.refusedURL

    /// The card a hover over `url` shows, in a session over `engine`.
    func hover(_ engine: LinkPeekEngine) async throws -> String {
        let client = try TestClient(service: engine)
        client.notify("textDocument/didOpen", [
            "textDocument": ["uri": "file:///notes.md", "languageId": "markdown", "version": 1, "text": .string("See \(url) here")],
        ])
        let answer = try await client.request(1, "textDocument/hover", [
            "textDocument": ["uri": "file:///notes.md"], "position": ["line": 0, "character": 8],
        ])
        #expect(try await client.shutdownAndExit() == 0)
        guard case .string(let card)? = answer["result"]?["contents"]?["value"] else { return "<no card in \(answer)>" }
        return card
    }

    @Test func aHoverThatMissesAsksEachLevelOnceAndItsFetchNone() async throws {
        let engine = levels.engine()
        let card = try await hover(engine)
        // The fetch ended (refused) within the hover's budget: its lookups are all counted.
        #expect(!card.contains("loading"), "\(card)")
        #expect(engine.cache.counters.snapshot.lookups == [.memory: 1, .disk: 1, .fleet: 1])
    }

    @Test func aHoverOverAStalePreviewAsksEachLevelOnce() async throws {
        let key = try #require(CacheKey(rawURL: url))
        var metadata = LinkMetadata(originalURL: url)
        metadata.title = "Stored"
        let entry = CacheEntry(value: .metadata(metadata), expiresAt: Date().addingTimeInterval(-60))
        let stored = CacheStore(directory: levels.directory)
        #expect(await stored.put(entry, key: key.description, originalURL: url, now: Date()))
        stored.flush()

        // The rule keeps the URL from the network: no background refresh asks the cache after the hover.
        var rule = SiteRule()
        rule.match = [try #require(SitePattern("127.0.0.1"))]
        rule.fetch = .cacheOnly
        let engine = levels.engine(rules: [rule])
        let card = try await hover(engine)
        #expect(card.contains("Stored"), "\(card)")
        #expect(engine.cache.counters.snapshot.lookups == [.memory: 1, .disk: 1, .fleet: 1])
    }

    @Test func aHoverOverAFreshStoredPreviewDoesNotAskTheFleet() async throws {
        let key = try #require(CacheKey(rawURL: url))
        var metadata = LinkMetadata(originalURL: url)
        metadata.title = "Stored"
        let entry = CacheEntry(value: .metadata(metadata), expiresAt: Date().addingTimeInterval(3600))
        let stored = CacheStore(directory: levels.directory)
        #expect(await stored.put(entry, key: key.description, originalURL: url, now: Date()))
        stored.flush()

        let engine = levels.engine()
        let card = try await hover(engine)
        #expect(card.contains("Stored"), "\(card)")
        #expect(engine.cache.counters.snapshot.lookups == [.memory: 1, .disk: 1, .fleet: 0])
        #expect(engine.cache.counters.snapshot.hits[.disk] == 1)
    }
}
