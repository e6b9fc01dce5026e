import Dispatch
import FoundationEssentials
import Images
import Synchronization

/// The engine's image state, Kingfisher's two levels: a memory LRU of
/// encoded variants bounded in bytes (first level, a hit costs a lookup),
/// then an `ImageStore` (second level) with the sources and variants. Also
/// which source a page's image or icon resolved to, so that a repeated
/// `getMedia` for a page reaches the variant without fetching the page.
public final class ImageCache: Sendable {
    /// Bytes of encoded variants kept in memory.
    public static let defaultVariantBytes = 32 << 20

    private let variants: Mutex<LRUMap<ImageBlob>>
    private let aliases = Mutex(LRUMap<(sourceURL: String, expiresAt: Date)>(capacity: 10_000))
    /// Sources that failed and transforms that failed, kept briefly
    /// (`CacheLifetime.failure`) so that a broken or hostile image is not
    /// fetched and decoded again on every request.
    private let failures = Mutex(LRUMap<(error: FetchError, expiresAt: Date)>(capacity: 10_000))
    /// The second level: the engine's is a `StoredImageStore` (the cache
    /// database's blobs, behind a memory store); `MemoryImageStore` when
    /// none is given.
    public let store: any ImageStore
    let worker = ImageWorker()
    /// Source fetches in progress, shared by the requests that want the same URL.
    let sourceFlights = Coalescer<String, FetchedSource>()

    public init(variantBytes: Int = defaultVariantBytes, store: any ImageStore = MemoryImageStore()) {
        variants = Mutex(LRUMap(capacity: variantBytes))
        self.store = store
    }

    /// A fresh variant: from memory, else from the store (and then kept in memory).
    func variant(_ key: String, now: Date = Date()) -> ImageBlob? {
        if let blob = variants.withLock({ $0.value(for: key) }), blob.isFresh(at: now) { return blob }
        guard let blob = store.blob(for: "variant " + key), blob.isFresh(at: now) else { return nil }
        variants.withLock { $0.insert(blob, cost: blob.bytes.count, for: key) }
        return blob
    }

    func storeVariant(_ blob: ImageBlob, for key: String) {
        variants.withLock { $0.insert(blob, cost: blob.bytes.count, for: key) }
        store.store(blob, for: "variant " + key)
    }

    func source(_ url: String, now: Date = Date()) -> ImageBlob? {
        store.blob(for: "source " + url).flatMap { $0.isFresh(at: now) ? $0 : nil }
    }

    func storeSource(_ blob: ImageBlob, for url: String) {
        store.store(blob, for: "source " + url)
    }

    /// The source a request URL (a page, for a kind) resolved to, while fresh.
    func alias(_ key: String, now: Date = Date()) -> String? {
        aliases.withLock { $0.value(for: key) }.flatMap { now < $0.expiresAt ? $0.sourceURL : nil }
    }

    func storeAlias(_ key: String, sourceURL: String, expiresAt: Date) {
        aliases.withLock { $0.insert((sourceURL, expiresAt), cost: 1, for: key) }
    }

    func failure(_ key: String, now: Date = Date()) -> FetchError? {
        failures.withLock { $0.value(for: key) }.flatMap { now < $0.expiresAt ? $0.error : nil }
    }

    /// Keeps `error` for `key` when it is a failure of the image (not a
    /// cancel, a timeout, or a cache-only miss, which say nothing about it).
    func storeFailure(_ error: FetchError, for key: String, now: Date = Date()) {
        // As for previews: not a cache miss, not a rate limit (`HostBackoff` remembers that).
        guard CacheLifetime.caches(error) else { return }
        failures.withLock { $0.insert((error, now.addingTimeInterval(CacheLifetime.failure(error))), cost: 1, for: key) }
    }

    /// Bytes of variants in memory, for tests.
    public var variantBytes: Int { variants.withLock { $0.totalCost } }
}

/// A source as fetched: its bytes, or the news that the URL is a page.
struct FetchedSource: Sendable {
    var blob: ImageBlob
    var isPage: Bool
}

/// Runs image work (blocking libvips calls) off Swift's cooperative pool,
/// which must not block: one job at a time for requests, and one more lane
/// for background work (`prefetch`), so that warming 200 thumbnails does
/// not queue a hover's image behind them. libvips parallelises each job itself.
final class ImageWorker: Sendable {
    private let queue = DispatchQueue(label: "linkpeek.images", qos: .userInitiated)
    private let backgroundQueue = DispatchQueue(label: "linkpeek.images.background", qos: .utility)
    private let warming = Atomic<Bool>(false)

    /// Opens libvips on the image lane now, so that loading it (some 25 ms:
    /// GLib, the codec libraries, `vips_init`) overlaps the fetch of the
    /// source rather than following it; the first render queues behind it.
    /// Call it when a render is likely (a variant not cached); only the
    /// first call does anything, and an idle process never calls it.
    func warmUp() {
        guard !warming.exchange(true, ordering: .relaxed) else { return }
        queue.async { _ = Vips.start() }
    }

    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        let lane = Task.currentPriority <= .background ? backgroundQueue : queue
        return await withCheckedContinuation { continuation in
            lane.async { continuation.resume(returning: work()) }
        }
    }
}
