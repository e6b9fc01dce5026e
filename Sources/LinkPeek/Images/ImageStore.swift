import FoundationEssentials
import Synchronization

/// An image kept by the image cache: a source as fetched, or a variant as made.
public struct ImageBlob: Sendable, Equatable {
    public var bytes: [UInt8]
    /// MIME type of `bytes` (for a source, what its magic bytes say).
    public var type: String
    /// Pixel size, for variants (0 for a source, which is not decoded to be stored).
    public var width: Int
    public var height: Int
    /// Where the source came from (after redirects).
    public var sourceURL: String
    /// The source's HTTP freshness; a variant inherits it.
    public var expiresAt: Date
    /// For a variant, the MIME type of the source it was made from ("" when unknown).
    public var sourceType: String

    public init(
        bytes: [UInt8], type: String, width: Int = 0, height: Int = 0, sourceURL: String, expiresAt: Date,
        sourceType: String = ""
    ) {
        self.bytes = bytes
        self.type = type
        self.width = width
        self.height = height
        self.sourceURL = sourceURL
        self.expiresAt = expiresAt
        self.sourceType = sourceType
    }

    public func isFresh(at now: Date = Date()) -> Bool { now < expiresAt }
}

/// The image cache's second level, behind the memory LRU of variants: it
/// keeps sources (key `source <url>`) and variants (key `variant <url>
/// <transform>`), so that a new size does not refetch a source and a
/// restart need not redo a variant. `MemoryImageStore` is the default;
/// `StoredImageStore` (the cache database's blobs) is the engine's.
public protocol ImageStore: Sendable {
    func blob(for key: String) -> ImageBlob?
    func store(_ blob: ImageBlob, for key: String)
}

/// An `ImageStore` in memory, bounded in bytes.
public final class MemoryImageStore: ImageStore {
    private let lru: Mutex<LRUMap<ImageBlob>>

    public init(capacityBytes: Int = 64 << 20) {
        lru = Mutex(LRUMap(capacity: capacityBytes))
    }

    public func blob(for key: String) -> ImageBlob? {
        lru.withLock { $0.value(for: key) }
    }

    public func store(_ blob: ImageBlob, for key: String) {
        lru.withLock { $0.insert(blob, cost: blob.bytes.count, for: key) }
    }
}
