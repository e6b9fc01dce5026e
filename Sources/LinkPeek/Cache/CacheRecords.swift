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
}

/// One `entry` row as the store reads it back.
struct StoredEntry: Sendable, Equatable {
    /// The key the row is stored under (the alias target when found by an alias).
    var key: String
    var originalURL: String
    var isFailure: Bool
    /// The served JSON: metadata with `fromCache: true`, or a failure record.
    var body: [UInt8]
    var expiresAt: Double
    var mustRevalidate: Bool
    var etag: String?
    var lastModified: String?
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
