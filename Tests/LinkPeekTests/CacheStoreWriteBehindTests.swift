import Foundation
import Testing

@testable import LinkPeek

/// Writes behind (`CacheStore.put` on a store that `writesBehind`, as
/// `linkpeek fetch` makes): what is queued, what writes it, and that a
/// store that does not write behind answers only what is on disk. "Another
/// process" is a second store on the same directory.
extension CacheStoreTests {
    func writingBehind(rows: Int = 256, delay: DispatchTimeInterval = .seconds(3600)) -> CacheStore {
        CacheStore(
            directory: directory, sizeLimit: CacheStore.defaultSizeLimit, writesBehind: true,
            limits: .init(rows: rows, bytes: 4 << 20, delay: delay),
            logger: messages.logger(label: "linkpeek.cache", level: .warning))
    }

    /// `store` with two loads running: a burst, in which a store that writes behind queues.
    func inABurst(_ store: CacheStore) -> CacheStore {
        store.beginLoad()
        store.beginLoad()
        return store
    }

    /// Stores a preview titled `title` under `key`; whether `put` said it was stored.
    func put(_ title: String, key: String, in store: CacheStore, aliases: [String] = []) async -> Bool {
        await store.put(preview(title), key: key, originalURL: key, aliases: aliases, now: Date())
    }

    /// Waits (up to 10 s) until `other` reads `key`; whether it did.
    func eventuallyReads(_ key: String, in other: CacheStore) async throws -> Bool {
        for _ in 0..<200 {
            if other.entry(key) != nil { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    func title(_ row: StoredEntry?) -> String? {
        guard let row, case .metadata(let metadata) = (try? row.decodedEntry())?.value else { return nil }
        return metadata.title
    }

    @Test func aPutInABurstIsQueuedAndWrittenWhenTheBurstEnds() async throws {
        let store = inABurst(writingBehind())
        let other = makeStore()
        #expect(await put("a", key: "a", in: store, aliases: ["a2"]))
        #expect(other.entry("a") == nil)
        // The queue answers for the key in this process (an alias, once written).
        #expect(title(store.entry("a")) == "a")
        #expect(store.entry("a2") == nil)
        store.endLoad()
        #expect(other.entry("a") == nil)
        store.endLoad()
        #expect(try await eventuallyReads("a", in: other))
        #expect(other.entry("a2")?.key == "a")
    }

    @Test func flushWritesTheQueueAtOnce() async throws {
        let store = inABurst(writingBehind())
        let other = makeStore()
        #expect(await put("a", key: "a", in: store))
        #expect(await put("b", key: "b", in: store))
        #expect(other.entry("a") == nil)
        store.flush()
        #expect(title(other.entry("a")) == "a")
        #expect(title(other.entry("b")) == "b")
    }

    @Test func thePutThatFillsTheQueueWritesIt() async throws {
        let store = inABurst(writingBehind(rows: 3))
        let other = makeStore()
        for name in ["a", "b"] {
            #expect(await put(name, key: name, in: store))
        }
        #expect(other.entry("a") == nil && other.entry("b") == nil)
        #expect(await put("c", key: "c", in: store))
        #expect(["a", "b", "c"].map { title(other.entry($0)) } == ["a", "b", "c"])
    }

    @Test func theDelayWritesTheQueueWhileTheBurstGoesOn() async throws {
        let store = inABurst(writingBehind(delay: .milliseconds(50)))
        let other = makeStore()
        #expect(await put("a", key: "a", in: store))
        #expect(try await eventuallyReads("a", in: other))
    }

    @Test func aLaterWriteKeepsTheOrder() async throws {
        let store = inABurst(writingBehind())
        let other = makeStore()
        #expect(await put("old", key: "a", in: store))
        #expect(await put("b", key: "b", in: store))
        // The removal writes the queue first, in its transaction: "a" is gone, "b" is there.
        await store.remove("a")
        #expect(other.entry("a") == nil && store.entry("a") == nil)
        #expect(title(other.entry("b")) == "b")
        #expect(await put("new", key: "a", in: store))
        store.flush()
        #expect(title(other.entry("a")) == "new")
    }

    @Test func savedLinksShowAQueuedRefresh() async throws {
        let store = writingBehind()
        #expect(await store.save(url: "u", key: "k", tags: nil, body: preview("before").storedBody, at: Date()))
        #expect(await inABurst(store).put(preview("after"), key: "k", originalURL: "u", now: Date()))
        let body = try #require(store.saved().first?.body)
        #expect(String(decoding: body, as: UTF8.self).contains("\"title\":\"after\""))
    }

    @Test func anEngineWritesWhatItHeldBackWhenItShutsDown() async throws {
        var settings = Settings()
        settings.cacheDir = directory
        settings.cacheWritesBehind = true
        let engine = LinkPeekEngine(settings: settings)
        let store = inABurst(engine.cache.store)
        #expect(await put("a", key: "a", in: store))
        let other = makeStore()
        #expect(other.entry("a") == nil)
        engine.shutdown()
        #expect(title(other.entry("a")) == "a")
    }

    @Test func aBlobStoredBehindIsReadAtOnceAndWrittenByFlush() async throws {
        // Any store, not only one that writes puts behind: the image cache's blobs always are.
        let store = makeStore()
        let other = makeStore()
        let now = Date()
        store.storeBlobBehind([1, 2, 3], for: "image:x", expiresAt: now.addingTimeInterval(60), now: now)
        store.storeBlobBehind([9], for: "image:gone", expiresAt: now.addingTimeInterval(-1), now: now)
        #expect(store.blob("image:x", now: now) == [1, 2, 3])
        #expect(store.blob("image:gone", now: now) == nil)
        store.flush()
        #expect(other.blob("image:x", now: now) == [1, 2, 3])
        #expect(other.blob("image:gone", now: now) == nil)
    }

    @Test func anEngineWritesTheImageCachesBlobsWhenItShutsDown() async throws {
        var settings = Settings()
        settings.cacheDir = directory
        let engine = LinkPeekEngine(settings: settings)
        let now = Date()
        // Held back: the write queue is busy with a long write of its own until the engine shuts down.
        let gate = DispatchSemaphore(value: 0)
        engine.cache.store.writes.async { gate.wait() }
        engine.cache.store.storeBlobBehind([7, 7], for: "image:y", expiresAt: now.addingTimeInterval(60), now: now)
        let other = makeStore()
        #expect(other.blob("image:y", now: now) == nil)
        engine.shutdown()
        #expect(other.blob("image:y", now: now) == [7, 7])
        gate.signal()
    }

    @Test func aBatchQueuesLoadsThatRunOneAtATime() async throws {
        // The command's `--concurrency 1`: one load at a time, inside a batch.
        let store = writingBehind()
        let other = makeStore()
        store.beginBatch()
        for name in ["a", "b"] {
            store.beginLoad()
            #expect(await put(name, key: name, in: store))
            store.endLoad()
        }
        #expect(other.entry("a") == nil && other.entry("b") == nil)
        #expect(title(store.entry("b")) == "b")
        store.endBatch()
        #expect(try await eventuallyReads("a", in: other))
        #expect(title(other.entry("b")) == "b")
    }

    @Test func aLoadAloneOutsideABatchIsWrittenAtOnce() async throws {
        let store = writingBehind()
        let other = makeStore()
        store.beginLoad()
        #expect(await put("a", key: "a", in: store))
        #expect(title(other.entry("a")) == "a")
        store.endLoad()
    }

    @Test func aStoreThatDoesNotWriteBehindAnswersWhatIsOnDisk() async throws {
        let store = inABurst(makeStore())
        let other = makeStore()
        #expect(await put("a", key: "a", in: store))
        #expect(title(other.entry("a")) == "a")
    }
}
