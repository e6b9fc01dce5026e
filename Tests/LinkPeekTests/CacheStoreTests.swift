import Foundation
import LogCapture
import Synchronization
import Testing

@testable import LinkPeek

/// The SQLite level on real files in a temporary directory of its own,
/// through `CacheStore` as linkpeek uses it. A
/// database from a future schema is tested in `Tests/integration/test_cache.py`,
/// which can write one with Python's sqlite3.
final class CacheStoreTests {
    let directory: String
    /// The store's warnings.
    let messages = LogCapture()

    init() throws {
        directory = NSTemporaryDirectory() + "linkpeek-store-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    func makeStore(sizeLimit: Int = CacheStore.defaultSizeLimit, in directory: String? = nil) -> CacheStore {
        CacheStore(
            directory: directory ?? self.directory, sizeLimit: sizeLimit,
            logger: messages.logger(label: "linkpeek.cache", level: .warning))
    }

    func preview(_ title: String, padding: Int = 0) -> CacheEntry {
        var metadata = LinkMetadata(originalURL: "https://example.com/\(title)")
        metadata.title = title
        metadata.summary = String(repeating: "x", count: padding)
        return CacheEntry(value: .metadata(metadata), expiresAt: Date().addingTimeInterval(3600), etag: "\"e\"")
    }

    func movedAside() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(".corrupt-") }
    }

    @Test func entriesSurviveANewStoreAndAliasesFindThem() async throws {
        let store = makeStore()
        #expect(await store.put(preview("a"), key: "https://example.com/a", originalURL: "https://example.com/a",
                                aliases: ["https://example.com/final"], now: Date()))
        let reopened = makeStore()
        let row = try #require(reopened.entry("https://example.com/a"))
        #expect(row.etag == "\"e\"" && !row.isFailure)
        let entry = try row.decodedEntry()
        #expect(entry.servedJSON == preview("a").servedJSON)
        #expect(reopened.entry("https://example.com/final")?.key == "https://example.com/a")
        #expect(reopened.entry("https://example.com/none") == nil)
        #expect(!reopened.isInMemory)
        #expect(messages.list.isEmpty)
    }

    @Test func failuresRoundTrip() async throws {
        let store = makeStore()
        let failure = CacheEntry(value: .failure(.httpStatus(404)), expiresAt: Date().addingTimeInterval(60))
        await store.put(failure, key: "k", originalURL: "k", now: Date())
        #expect(try makeStore().entry("k")?.decodedEntry().value == .failure(.httpStatus(404)))
    }

    @Test(arguments: ["garbage", "truncated"])
    func aBrokenFileIsMovedAsideAndANewOneServes(kind: String) async throws {
        let path = directory + "/" + CacheLocation.fileName
        switch kind {
        case "garbage":
            try Data("this is not a database at all, but it is long enough to have a header".utf8)
                .write(to: URL(fileURLWithPath: path))
        case "truncated":
            do {
                let store = makeStore()
                for i in 0..<200 {
                    await store.put(preview("\(i)", padding: 2000), key: "k\(i)", originalURL: "k\(i)", now: Date())
                }
            }
            // The store closes on its write queue once the last write has let go of it;
            // closing checkpoints the WAL into the file and removes it. Wait for that (bounded).
            for _ in 0..<100 where FileManager.default.fileExists(atPath: path + "-wal") {
                try await Task.sleep(for: .milliseconds(50))
            }
            try #require(!FileManager.default.fileExists(atPath: path + "-wal"))
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            try #require(size > 100_000)
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.truncate(atOffset: UInt64(size / 2))
            try handle.close()
        default:
            Issue.record("no such case \(kind)")
        }
        let store = makeStore()
        #expect(await store.put(preview("a"), key: "a", originalURL: "a", now: Date()))
        #expect(store.entry("a") != nil)
        #expect(!store.isInMemory)
        #expect(movedAside().count == 1)
        #expect(messages.list.count == 1)
    }

    @Test func aZeroLengthFileIsAnEmptyDatabase() async throws {
        // SQLite reads an empty file as a new database, and another process
        // may have just created it: it is used, not moved aside.
        FileManager.default.createFile(atPath: directory + "/" + CacheLocation.fileName, contents: Data())
        let store = makeStore()
        #expect(await store.put(preview("a"), key: "a", originalURL: "a", now: Date()))
        #expect(makeStore().entry("a") != nil)
        #expect(movedAside().isEmpty)
    }

    @Test func aDirectoryWhereTheFileShouldBeKeepsTheCacheInMemory() async throws {
        try FileManager.default.createDirectory(atPath: directory + "/" + CacheLocation.fileName, withIntermediateDirectories: true)
        let store = makeStore()
        #expect(store.isInMemory)
        #expect(await store.put(preview("a"), key: "a", originalURL: "a", now: Date()))
        #expect(store.entry("a") != nil)
        #expect(await store.save(url: "a", key: "a", tags: ["t"], body: nil, at: Date()))
        #expect(store.saved().map(\.url) == ["a"])
        #expect(messages.list.count == 1)
    }

    @Test func aDirectoryThatCannotBeMadeKeepsTheCacheInMemory() async throws {
        let file = directory + "/plain-file"
        FileManager.default.createFile(atPath: file, contents: Data("x".utf8))
        let store = makeStore(in: file + "/cache")
        #expect(store.isInMemory)
        #expect(await store.put(preview("a"), key: "a", originalURL: "a", now: Date()))
        #expect(messages.list.count == 1)
    }

    @Test func evictionStaysUnderTheLimitAndKeepsSavedLinks() async throws {
        let limit = 1024 * 1024
        let store = makeStore(sizeLimit: limit)
        for i in 0..<3 {
            #expect(await store.save(url: "k\(i)", key: "k\(i)", tags: nil, body: nil, at: Date()))
        }
        for i in 0..<400 {
            await store.put(preview("\(i)", padding: 8000), key: "k\(i)", originalURL: "k\(i)",
                            now: Date(timeIntervalSince1970: 1_000_000 + Double(i)))
        }
        _ = await store.prune()
        let stats = store.stats()
        #expect(stats.usedBytes <= limit)
        #expect(stats.fileBytes <= limit)
        #expect(stats.entries < 400)
        for i in 0..<3 { #expect(store.entry("k\(i)") != nil, "saved k\(i) was evicted") }
        // The newest entries stay, the oldest unsaved ones go.
        #expect(store.entry("k399") != nil)
        #expect(store.entry("k3") == nil)
    }

    /// Past the size limit the store prunes by itself (a check every 64
    /// writes, in the background): nobody calls `prune()` here.
    @Test func writingPastTheLimitEvictsWithoutAPruneCall() async throws {
        let limit = 1024 * 1024
        let store = makeStore(sizeLimit: limit)
        for i in 0..<400 {
            await store.put(preview("\(i)", padding: 8000), key: "k\(i)", originalURL: "k\(i)",
                            now: Date(timeIntervalSince1970: 1_000_000 + Double(i)))
        }
        // A state to wait for (bounded; it fails loudly): the background prune brought the store under its limit.
        let deadline = ContinuousClock.now + .seconds(60)
        while store.stats().usedBytes > limit, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let stats = store.stats()
        #expect(stats.usedBytes <= limit)
        #expect(stats.entries < 400)
        #expect(store.entry("k399") != nil)
        #expect(store.entry("k0") == nil)
    }

    @Test func savedLinksAreNewestFirstByTagWithPaging() async throws {
        let store = makeStore()
        for (i, tags) in [["a"], ["a", "b"], ["b"]].enumerated() {
            let time = Date(timeIntervalSince1970: 1_000_000 + Double(i))
            #expect(await store.save(url: "u\(i)", key: "u\(i)", tags: tags, body: Array("{}".utf8), at: time))
        }
        #expect(store.saved().map(\.url) == ["u2", "u1", "u0"])
        #expect(store.saved(tag: "a").map(\.url) == ["u1", "u0"])
        #expect(store.saved(limit: 1, offset: 1).map(\.url) == ["u1"])
        #expect(store.saved().first?.tags == ["b"])
        // Saving again keeps savedAt, replaces the tags.
        #expect(await store.save(url: "u0", key: "u0", tags: ["c"], body: nil, at: Date()))
        let again = try #require(store.saved(tag: "c").first)
        #expect(again.savedAt == 1_000_000 && again.body == Array("{}".utf8))
        #expect(await store.unsave(url: "u0") == true)
        #expect(await store.unsave(url: "u0") == false)
        #expect(store.saved().count == 2)
    }

    @Test func blobsExpire() async throws {
        let store = makeStore()
        let now = Date()
        #expect(await store.storeBlob([1, 2, 3], for: "media:x", expiresAt: now.addingTimeInterval(60)))
        #expect(store.blob("media:x", now: now) == [1, 2, 3])
        #expect(store.blob("media:x", now: now.addingTimeInterval(120)) == nil)
        #expect(store.blob("media:y") == nil)
    }
}
