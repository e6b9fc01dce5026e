import FoundationEssentials
import JSON

/// The image cache's second level in the persistent cache: sources and
/// variants as blobs of the cache database (`CacheStore.blob`), so that a
/// restart does not refetch a source or redo a variant, and images count
/// towards the cache's size limit with everything else. A memory store in
/// front keeps the hot ones; with the cache in memory only (`--no-cache`),
/// or when the database cannot be written, the memory store is all there is.
final class StoredImageStore: ImageStore {
    private let memory: MemoryImageStore
    private let store: CacheStore

    init(store: CacheStore, memory: MemoryImageStore = MemoryImageStore()) {
        self.store = store
        self.memory = memory
    }

    /// A store without a directory (`--no-cache`) is an in-memory database:
    /// copying images into it would only keep them twice in this process
    /// (and load SQLite for a one-shot `linkpeek image`), so the memory
    /// store is all there is.
    private var persistent: Bool { store.directory != nil }

    /// A damaged blob is a miss, said at `info` with the damage, and is
    /// dropped (in the background) so that it is not read and refused again.
    func blob(for key: String) -> ImageBlob? {
        if let hit = memory.blob(for: key) { return hit }
        guard persistent, let bytes = store.blob(Self.prefix + key) else { return nil }
        let blob: ImageBlob
        do throws(StoredDamage) { blob = try Self.decode(bytes) } catch {
            store.logger.info("image blob unreadable; dropped", metadata: ["key": "\(key)", "error": "\(error)"])
            let store = self.store
            Task.detached(priority: .background) { await store.removeBlob(Self.prefix + key) }
            return nil
        }
        memory.store(blob, for: key)
        return blob
    }

    func store(_ blob: ImageBlob, for key: String) {
        memory.store(blob, for: key)
        guard persistent, let bytes = Self.encode(blob) else { return }
        // Written behind the answer (and before the process ends): a failed write only costs a later remake.
        store.storeBlobBehind(bytes, for: Self.prefix + key, expiresAt: blob.expiresAt)
    }

    /// Blob keys of this feature (`CacheStore`'s blobs are shared).
    static let prefix = "image:"

    /// What a stored image says about itself, before its bytes.
    private struct Header: Codable {
        var type: String
        var width: Int
        var height: Int
        var sourceURL: String
        var expiresAt: Double
        /// Absent in blobs written before it existed.
        var sourceType: String?
    }

    /// The header as one line of JSON, a newline, then the bytes.
    static func encode(_ blob: ImageBlob) -> [UInt8]? {
        let header = Header(
            type: blob.type, width: blob.width, height: blob.height, sourceURL: blob.sourceURL,
            expiresAt: blob.expiresAt.timeIntervalSince1970, sourceType: blob.sourceType)
        guard let json = try? WireJSON.bytes(of: header) else { return nil }
        // One allocation: a source can be megabytes.
        var bytes = [UInt8]()
        bytes.reserveCapacity(json.count + 1 + blob.bytes.count)
        bytes.append(contentsOf: json)
        bytes.append(0x0A)
        bytes.append(contentsOf: blob.bytes)
        return bytes
    }

    /// The image `encode` wrote, or what is wrong with anything else.
    static func decode(_ bytes: [UInt8]) throws(StoredDamage) -> ImageBlob {
        guard let newline = bytes.firstIndex(of: 0x0A) else { throw StoredDamage("no header line") }
        let header = try StoredDamage.decode(Header.self, from: bytes[..<newline])
        guard header.expiresAt.isFinite, header.width >= 0, header.height >= 0 else {
            throw StoredDamage("header out of range")
        }
        return ImageBlob(
            bytes: Array(bytes[(newline + 1)...]), type: header.type, width: header.width, height: header.height,
            sourceURL: header.sourceURL, expiresAt: Date(timeIntervalSince1970: header.expiresAt),
            sourceType: header.sourceType ?? "")
    }
}
