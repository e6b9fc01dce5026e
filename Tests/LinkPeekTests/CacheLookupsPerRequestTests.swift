import Foundation
import LinkPeekTestSupport
import Testing

@testable import LinkPeek

/// A request builds its key once and asks memory, then the disk, then the
/// fleet once each, carrying what it found from the cache stage (`lookUp`)
/// into the load path (`fetch(_:)`), which reads no level again. Counted by
/// the engine's `CacheCounters`, per level asked.
final class CacheLookupsPerRequestTests {
    let levels: ThreeLevelCache

    init() throws {
        levels = try ThreeLevelCache(name: "lookups")
    }

    /// Refused by the address policy: a miss ends without any network.
    let url = ThreeLevelCache.refusedURL

    @Test func aMissAsksMemoryThenDiskThenFleetOnceEach() async {
        let engine = levels.engine()
        guard case .miss(let request) = await engine.lookUp(url: url, options: FetchOptions()) else {
            Issue.record("nothing is cached yet")
            return
        }
        _ = try? await engine.fetch(request)
        #expect(engine.cache.counters.snapshot.lookups == [.memory: 1, .disk: 1, .fleet: 1])
    }

    @Test func aFetchThatSkipsTheCacheStageAsksEachLevelOnce() async {
        // Bytes are not in the stored JSON: the cache stage asks nothing, the load path once.
        let engine = levels.engine()
        var options = FetchOptions()
        options.includeData = true
        options.cachePolicy = .cacheOnly
        guard case .miss(let request) = await engine.lookUp(url: url, options: options) else {
            Issue.record("a fetch for bytes is never answered by the stored JSON")
            return
        }
        #expect(engine.cache.counters.snapshot.lookups == [.memory: 0, .disk: 0, .fleet: 0])
        await #expect(throws: FetchError.self) { try await engine.fetch(request) }
        #expect(engine.cache.counters.snapshot.lookups == [.memory: 1, .disk: 1, .fleet: 1])
    }

    @Test func saveAsksEachLevelOnceAndCarriesWhatItFoundIntoTheFetch() async throws {
        // Nothing cached: save's own lookup goes with its fetch, which reads no level again.
        let engine = levels.engine()
        let saved = try await engine.save(url: url, tags: nil)
        #expect(saved.failure != nil)
        #expect(engine.cache.counters.snapshot.lookups == [.memory: 1, .disk: 1, .fleet: 1])
    }

    @Test func aFreshRowOnDiskIsAnsweredAsStoredWithoutAskingTheFleet() async throws {
        let key = try #require(CacheKey(rawURL: url))
        var metadata = LinkMetadata(originalURL: url)
        metadata.title = "Stored"
        let entry = CacheEntry(value: .metadata(metadata), expiresAt: Date().addingTimeInterval(3600))
        let stored = CacheStore(directory: levels.directory)
        #expect(await stored.put(entry, key: key.description, originalURL: url, now: Date()))
        stored.flush()

        let engine = levels.engine()
        guard case .fresh(let json) = await engine.lookUp(url: url, options: FetchOptions()) else {
            Issue.record("a fresh stored preview answers at once")
            return
        }
        #expect(json == entry.servedJSON)
        #expect(engine.cache.counters.snapshot.lookups == [.memory: 1, .disk: 1, .fleet: 0])
        #expect(engine.cache.counters.snapshot.hits[.disk] == 1)
    }
    @Test func memoryAloneAnswersWithoutSuspendingAndCountsOnlyWhatItAnswers() throws {
        let key = try #require(CacheKey(rawURL: url))
        var metadata = LinkMetadata(originalURL: url)
        metadata.title = "In memory"
        let entry = CacheEntry(value: .metadata(metadata), expiresAt: Date().addingTimeInterval(3600))
        let engine = levels.engine()
        // Nothing in memory: nil, nothing counted, and the caller is not asked to admit it.
        #expect(engine.freshInMemory(url: url, options: FetchOptions(), admit: { Issue.record("asked"); return true }) == nil)
        engine.cache.memory.store(entry, for: key.description)
        // Refused by the caller: nil and nothing counted (its `lookUp` counts its own look).
        #expect(engine.freshInMemory(url: url, options: FetchOptions(), admit: { false }) == nil)
        var reload = FetchOptions()
        reload.cachePolicy = .reload
        #expect(engine.freshInMemory(url: url, options: reload, admit: { true }) == nil)
        #expect(engine.cache.counters.snapshot.lookups == [.memory: 0, .disk: 0, .fleet: 0])
        let json = try #require(entry.servedJSON)
        #expect(engine.freshInMemory(url: url, options: FetchOptions(), admit: { true }) == json)
        #expect(engine.cache.counters.snapshot.lookups == [.memory: 1, .disk: 0, .fleet: 0])
        #expect(engine.cache.counters.snapshot.hits[.memory] == 1)
    }
}
