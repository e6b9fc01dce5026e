/// The calls linkpeek makes into the cache library, by number. Each call's
/// input and output are `ByteWriter` buffers, documented per case as
/// `input → output`; an absent output means the call failed.
public enum CacheCall: Int32, Sendable {
    /// `key: string` → `StoredRow?`
    case entry = 1
    /// `StoredRow, aliases: strings, now: double` → `bool`
    case put
    /// `key: string` → nothing
    case remove
    /// nothing → `CacheStats` as JSON bytes
    case stats
    /// nothing → `int` (rows removed)
    case clear, prune
    /// `url, key: string, tags: strings?, body: data?, at: double` → `bool`
    case save
    /// `url: string` → `bool`
    case unsave
    /// `tag: string?, limit, offset: int` → `count: int`, then `SavedRecord`s
    case saved
    /// `key: string, now: double` → `data?`
    case blob
    /// `bytes: data, key: string, expiresAt, now: double` → `bool`
    case storeBlob
    /// nothing → `bool` (true when the store fell back to memory)
    case isInMemory
    /// `DaemonUsage` → `bool`
    case usage
}

/// What one running daemon reports of its cache use since it started.
public struct DaemonUsage: Sendable, Codable, Equatable {
    public var pid: Int
    /// Seconds since 1970.
    public var startedAt: Double
    /// Requests answered from the cache, and those that were not.
    public var hits: Int
    public var misses: Int
    public var updatedAt: Double

    public init(pid: Int, startedAt: Double, hits: Int, misses: Int, updatedAt: Double) {
        self.pid = pid
        self.startedAt = startedAt
        self.hits = hits
        self.misses = misses
        self.updatedAt = updatedAt
    }

    public func write(to writer: inout ByteWriter) {
        writer.int(pid)
        writer.double(startedAt)
        writer.int(hits)
        writer.int(misses)
        writer.double(updatedAt)
    }

    public init?(from reader: inout ByteReader) {
        guard let pid = reader.int(), let startedAt = reader.double(), let hits = reader.int(),
            let misses = reader.int(), let updatedAt = reader.double()
        else { return nil }
        self.init(pid: pid, startedAt: startedAt, hits: hits, misses: misses, updatedAt: updatedAt)
    }
}

/// One `entry` row as the store reads it back.
public struct StoredRow: Sendable, Equatable {
    /// The key the row is stored under (the alias target when found by an alias).
    public var key: String
    public var originalURL: String
    public var isFailure: Bool
    /// The served JSON: metadata with `fromCache: true`, or a failure record.
    public var body: [UInt8]
    public var expiresAt: Double
    public var mustRevalidate: Bool
    public var etag: String?
    public var lastModified: String?

    public init(
        key: String, originalURL: String, isFailure: Bool, body: [UInt8], expiresAt: Double, mustRevalidate: Bool,
        etag: String?, lastModified: String?
    ) {
        self.key = key
        self.originalURL = originalURL
        self.isFailure = isFailure
        self.body = body
        self.expiresAt = expiresAt
        self.mustRevalidate = mustRevalidate
        self.etag = etag
        self.lastModified = lastModified
    }

    public func write(to writer: inout ByteWriter) {
        writer.string(key)
        writer.string(originalURL)
        writer.bool(isFailure)
        writer.data(body)
        writer.double(expiresAt)
        writer.bool(mustRevalidate)
        writer.optional(etag) { $0.string($1) }
        writer.optional(lastModified) { $0.string($1) }
    }

    public init?(from reader: inout ByteReader) {
        guard let key = reader.string(), let originalURL = reader.string(), let isFailure = reader.bool(),
            let body = reader.data(), let expiresAt = reader.double(), let mustRevalidate = reader.bool(),
            let etag = reader.optional({ $0.string() }), let lastModified = reader.optional({ $0.string() })
        else { return nil }
        self.init(
            key: key, originalURL: originalURL, isFailure: isFailure, body: body, expiresAt: expiresAt,
            mustRevalidate: mustRevalidate, etag: etag, lastModified: lastModified)
    }
}

/// A saved link as the store keeps it.
public struct SavedRecord: Sendable, Equatable {
    /// The normalised URL.
    public var url: String
    /// Seconds since 1970.
    public var savedAt: Double
    public var tags: [String]
    /// The pinned metadata (served JSON), when the link was ever fetched.
    public var body: [UInt8]?

    public init(url: String, savedAt: Double, tags: [String], body: [UInt8]?) {
        self.url = url
        self.savedAt = savedAt
        self.tags = tags
        self.body = body
    }

    public func write(to writer: inout ByteWriter) {
        writer.string(url)
        writer.double(savedAt)
        writer.strings(tags)
        writer.optional(body) { $0.data($1) }
    }

    public init?(from reader: inout ByteReader) {
        guard let url = reader.string(), let savedAt = reader.double(), let tags = reader.strings(),
            let body = reader.optional({ $0.data() })
        else { return nil }
        self.init(url: url, savedAt: savedAt, tags: tags, body: body)
    }
}

/// What `linkpeek cache stats` shows.
public struct CacheStats: Sendable, Codable, Equatable {
    /// The database file, or `memory`.
    public var location: String
    public var entries: Int
    public var failures: Int
    public var saved: Int
    public var blobs: Int
    /// Bytes of the database file and its WAL on disk.
    public var fileBytes: Int
    /// Bytes of pages in use (what the size limit counts).
    public var usedBytes: Int
    public var sizeLimit: Int
    /// When the oldest and newest entries were stored (ISO 8601).
    public var oldest: String?
    public var newest: String?
    /// The daemons running on this cache that report their use (`linkpeek serve`).
    public var daemons: [DaemonUsage]?

    public init(
        location: String, entries: Int = 0, failures: Int = 0, saved: Int = 0, blobs: Int = 0, fileBytes: Int = 0,
        usedBytes: Int = 0, sizeLimit: Int, oldest: String? = nil, newest: String? = nil
    ) {
        self.location = location
        self.entries = entries
        self.failures = failures
        self.saved = saved
        self.blobs = blobs
        self.fileBytes = fileBytes
        self.usedBytes = usedBytes
        self.sizeLimit = sizeLimit
        self.oldest = oldest
        self.newest = newest
    }
}
