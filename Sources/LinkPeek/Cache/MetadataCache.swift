import FoundationEssentials

/// The first cache level: previews in memory, by `CacheKey.description`.
/// `MemoryCache` is the implementation; `PreviewCache` puts the SQLite
/// store (`CacheStore`) behind it.
public protocol MetadataCache: Sendable {
    /// The entry for `key`, fresh or stale; nil when there is none.
    func entry(for key: String) -> CacheEntry?
    func store(_ entry: CacheEntry, for key: String)
    func remove(_ key: String)
    /// Forgets every entry (`cache clear`).
    func removeAll()
}

/// A cached outcome: a preview, or a failure (kept briefly so a broken link
/// is not fetched again and again), with what revalidating it needs.
public struct CacheEntry: Sendable, Equatable {
    /// Boxed (`indirect`): an entry rides with every request in flight (the
    /// cache stage's `CacheLookup`, the stale copy revalidated, the entry
    /// stored for the answer), and each copy held across an `await` is a
    /// slot in that request's task frame; inline, a preview made an entry
    /// 1.5 KB, and such frames a few hundred KB per request.
    public indirect enum Value: Sendable, Equatable {
        case metadata(LinkMetadata)
        case failure(FetchError)
    }

    public var value: Value
    public var expiresAt: Date
    /// `Cache-Control: no-cache`: never fresh, revalidated on every use.
    public var mustRevalidate: Bool
    /// The validators (`ETag`, `Last-Modified`) of the response it came from.
    public var etag: String?
    public var lastModified: String?
    /// The preview as a cache hit serves it (`fromCache: true`), encoded at
    /// most once, on first use, so that a hit costs a copy, not an encoding:
    /// a daemon can answer tens of thousands of `getCached` a second this
    /// way, against a few thousand when each hit encodes the metadata again.
    /// An entry nobody reads back (`fetch --no-cache`) is never encoded.
    /// Nil for failures.
    public var servedJSON: [UInt8]? { served.bytes }
    private let served: ServedJSON

    public init(
        value: Value, expiresAt: Date, mustRevalidate: Bool = false, etag: String? = nil, lastModified: String? = nil
    ) {
        var servedForm: LinkMetadata?
        if case .metadata(var metadata) = value {
            metadata.fromCache = true
            metadata.stale = nil
            servedForm = metadata
        }
        self.init(value: value, expiresAt: expiresAt, mustRevalidate: mustRevalidate, etag: etag,
                  lastModified: lastModified, served: ServedJSON(encoding: servedForm))
    }

    /// An entry whose served form is already known (read back from the store).
    init(
        value: Value, expiresAt: Date, mustRevalidate: Bool, etag: String?, lastModified: String?,
        servedJSON: [UInt8]?
    ) {
        self.init(value: value, expiresAt: expiresAt, mustRevalidate: mustRevalidate, etag: etag,
                  lastModified: lastModified, served: ServedJSON(known: servedJSON))
    }

    private init(
        value: Value, expiresAt: Date, mustRevalidate: Bool, etag: String?, lastModified: String?, served: ServedJSON
    ) {
        self.value = value
        self.expiresAt = expiresAt
        self.mustRevalidate = mustRevalidate
        self.etag = etag
        self.lastModified = lastModified
        self.served = served
    }

    /// Equal when what they hold is: the served form follows from the value.
    public static func == (lhs: CacheEntry, rhs: CacheEntry) -> Bool {
        lhs.value == rhs.value && lhs.expiresAt == rhs.expiresAt && lhs.mustRevalidate == rhs.mustRevalidate
            && lhs.etag == rhs.etag && lhs.lastModified == rhs.lastModified
    }

    public func isFresh(at now: Date = Date()) -> Bool { !mustRevalidate && now < expiresAt }

    /// Whether a stale copy can be revalidated rather than fetched again.
    public var hasValidators: Bool { etag != nil || lastModified != nil }
}
