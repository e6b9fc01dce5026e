import Foundation
import LogCapture
import Testing

@testable import LinkPeek

/// Bytes in the cache database that no longer read back (a cache row, an
/// image blob, a saved link's preview): each is a miss, logged with its key
/// and what is wrong, and dropped so that it is said once, not on every read.
final class DamagedStoreTests {
    let directory: String
    let log = LogCapture()
    let store: CacheStore

    init() throws {
        directory = NSTemporaryDirectory() + "linkpeek-damaged-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        store = CacheStore(directory: directory, logger: log.logger(label: "linkpeek.cache", level: .info))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Waits (at most 5 s) for a drop made in the background.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<100 where !condition() {
            try await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }

    @Test func aCacheRowThatDoesNotDecodeIsAMissSaidAtInfoAndDropped() async throws {
        let url = "https://example.com/damaged"
        let key = try #require(CacheKey(rawURL: url))
        let damaged = CacheEntry(
            value: .metadata(LinkMetadata(originalURL: url)), expiresAt: Date().addingTimeInterval(3600),
            mustRevalidate: false, etag: nil, lastModified: nil, servedJSON: Array(#"{"title":"no URL"}"#.utf8))
        #expect(await store.put(damaged, key: key.description, originalURL: url, now: Date()))
        let cache = PreviewCache(store: store)
        #expect(cache.lookup(key, url: url, now: Date()) == nil)
        let said = log.records("cache entry unreadable; dropped")
        #expect(said.map(\.level) == [.info])
        #expect(said.first?.metadata["key"] == key.description)
        #expect(said.first?.metadata["error"] == "originalURL missing")
        #expect(try await eventually { store.entry(key.description) == nil })
    }

    @Test func aFreshRowServedAsItsBytesThatDoesNotDecodeIsDroppedByTheEngine() async throws {
        // Fresh and asked for as stored: `served` hands out the row's bytes undecoded; `cached` decodes them.
        let url = "https://example.com/served"
        let key = try #require(CacheKey(rawURL: url))
        let damaged = CacheEntry(
            value: .metadata(LinkMetadata(originalURL: url)), expiresAt: Date().addingTimeInterval(3600),
            mustRevalidate: false, etag: nil, lastModified: nil, servedJSON: Array(#"{"originalURL":7}"#.utf8))
        #expect(await store.put(damaged, key: key.description, originalURL: url, now: Date()))
        let engine = LinkPeekEngine(settings: Settings(), store: store, logger: log.logger(label: "linkpeek", level: .info))
        #expect(await engine.cached(url: url) == nil)
        let said = log.records("cache entry unreadable; dropped")
        #expect(said.map(\.level) == [.info])
        #expect(said.first?.metadata["key"] == key.description)
        #expect(said.first?.metadata["error"] == "originalURL of the wrong type")
        #expect(store.entry(key.description) == nil)
        #expect(await engine.cachedJSON(url: url) == nil)
    }

    @Test func aFreshRowThatIsNotJSONIsNeverServedAsItsBytes() async throws {
        // Fresh and asked for as stored, the row would go to the client undecoded: damaged bytes must not.
        let url = "https://example.com/truncated"
        let key = try #require(CacheKey(rawURL: url))
        let damaged = CacheEntry(
            value: .metadata(LinkMetadata(originalURL: url)), expiresAt: Date().addingTimeInterval(3600),
            mustRevalidate: false, etag: nil, lastModified: nil, servedJSON: Array(#"{"bytesRead":42,"exp"#.utf8))
        #expect(await store.put(damaged, key: key.description, originalURL: url, now: Date()))
        let cache = PreviewCache(store: store)
        var found = cache.lookInMemory(key, url: url)
        cache.lookBehindMemory(&found, now: Date(), asStored: true)
        #expect(found.storedBytes == nil && found.freshJSON(at: Date()) == nil)
        #expect(cache.served(cache.lookInMemory(key, url: url), now: Date()) == nil)
        let said = log.records("cache entry unreadable; dropped")
        #expect(said.first.map { [$0.level] } == [.info])
        #expect(said.first?.metadata["key"] == key.description)
        #expect(said.first?.metadata["error"] == "not JSON")
        #expect(try await eventually { store.entry(key.description) == nil })
    }

    @Test func anImageBlobThatDoesNotDecodeIsAMissSaidAtInfoAndDropped() async throws {
        let images = StoredImageStore(store: store)
        #expect(await store.storeBlob(Array("not an image\n".utf8), for: StoredImageStore.prefix + "source k",
                                      expiresAt: Date().addingTimeInterval(3600)))
        #expect(images.blob(for: "source k") == nil)
        let said = log.records("image blob unreadable; dropped")
        #expect(said.map(\.level) == [.info])
        #expect(said.first?.metadata["key"] == "source k")
        #expect(said.first?.metadata["error"] == "not JSON")
        #expect(try await eventually { store.blob(StoredImageStore.prefix + "source k") == nil })
    }

    @Test func aSavedPreviewThatDoesNotDecodeIsAWarningOnceAndTheLinkStays() async throws {
        let url = "https://example.com/pinned"
        #expect(await store.save(url: url, key: url, tags: ["t"], body: Array("{\"originalURL\":".utf8), at: Date()))
        let links = await store.savedLinks()
        #expect(links.map(\.originalURL) == [url])
        #expect(links.first?.tags == ["t"] && links.first?.title == nil)
        let said = log.records("saved link's preview unreadable; dropped, the link stays")
        #expect(said.map(\.level) == [.warning])
        #expect(said.first?.metadata["url"] == url)
        #expect(said.first?.metadata["error"] == "not JSON")
        #expect(store.saved().map(\.body) == [nil])
        _ = await store.savedLinks()
        #expect(log.records("saved link's preview unreadable; dropped, the link stays").count == 1)
    }
}
