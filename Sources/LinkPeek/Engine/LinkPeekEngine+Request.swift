import FoundationEssentials
import TextTrimming

/// A request that the cache stage (`lookUp`) did not answer: the URL and
/// options as asked, and what the cache held, carried into the load path
/// (`fetch(_:events:)`) so that no level is asked twice.
public struct PreviewRequest: Sendable {
    /// The URL as the caller wrote it.
    public let url: String
    public let options: FetchOptions
    /// What the cache stage found; nil when it asked no level (a request
    /// the stored JSON cannot answer: bytes, thumbnails, `reload`), and
    /// the load path asks them itself.
    let found: CacheLookup?

    /// A request that has not been through the cache stage.
    public init(url: String, options: FetchOptions) {
        self.init(url: url, options: options, found: nil)
    }

    init(url: String, options: FetchOptions, found: CacheLookup?) {
        self.url = url
        self.options = options
        self.found = found
    }
}

/// What the cache stage answers a request with.
public enum CacheAnswer: Sendable {
    /// A fresh cached preview's JSON, as `fetch` answers it: sent as it is.
    case fresh([UInt8])
    /// Not answered from the cache: go on with `fetch(_:events:)`.
    case miss(PreviewRequest)
}

/// What the cache stage answers a front that shows a preview at once (the
/// LSP hover) with: a cached preview, fresh or stale (a stale one is being
/// refreshed behind it), or the request for a fetch, carrying what was found.
public enum CachedPreview: Sendable {
    case preview(LinkMetadata)
    case miss(PreviewRequest)
}

/// What `fetch` answers a request with: the preview, and for a front that
/// answers with JSON its bytes (`json()`), taken from the one encoding the
/// cache made of what it stored when they say the same. How the answer
/// came (which cache level, or a flight another caller started) is told
/// to the caller's `CacheTrace`, where it happens.
public struct FetchedPreview: Sendable {
    public var metadata: LinkMetadata {
        get { box.metadata }
        set { box = MetadataBox(newValue) }
    }
    /// The cache entry stored (or found shared) for this preview, if any.
    let stored: CacheEntry?
    /// Held by reference while the answer travels back (`MetadataBox`).
    private var box: MetadataBox

    init(metadata: LinkMetadata, stored: CacheEntry? = nil) {
        self.box = MetadataBox(metadata)
        self.stored = stored
    }

    /// The preview as JSON (`LinkMetadata.jsonBytes()`). When it is what the
    /// cache stored for it (the same fields; no bytes or thumbnails asked
    /// for), it is the entry's served JSON, with `fromCache` as this answer
    /// has it: a miss encodes its preview once, for the store, the fleet and
    /// the answer.
    public func json() throws -> [UInt8] {
        if metadata.stale == nil, let stored, case .metadata(let kept) = stored.value,
            Self.servedForm(of: metadata) == Self.servedForm(of: kept), let served = stored.servedJSON
        {
            switch metadata.fromCache {
            case true?: return served
            case false?: if let fetched = ServedJSON.fetchedForm(of: served) { return fetched }
            case nil: break
            }
        }
        return try metadata.jsonBytes()
    }

    /// `metadata` as a cache hit serves it (`CacheEntry.servedJSON`).
    private static func servedForm(of metadata: LinkMetadata) -> LinkMetadata {
        var served = metadata
        served.fromCache = true
        served.stale = nil
        return served
    }
}

/// A request's way through the engine: the cache stage (`lookUp`: the key
/// built once, memory on the caller's executor, the disk and the fleet off
/// it), then `fetch(_:events:)` with what was found (check, cache policy,
/// shared flight, load, answer). Both fronts, the JSON-RPC server and the
/// HTTP service, call these two; the command and the library's `fetch(url:)`
/// go through the same path.
extension LinkPeekEngine {
    public func fetch(
        url: String, options: FetchOptions, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> LinkMetadata {
        try await answer(PreviewRequest(url: url, options: options), progress: true, events: events).metadata
    }

    /// `fetch` for a caller that shows no progress (the command's batch
    /// fetches): a shared transfer then passes on its stages only, not
    /// every chunk's byte count.
    public func fetch(url: String, options: FetchOptions) async throws(FetchError) -> LinkMetadata {
        try await answer(PreviewRequest(url: url, options: options), progress: false, events: { _ in }).metadata
    }

    public func fetch(
        _ request: PreviewRequest, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> FetchedPreview {
        try await answer(request, progress: true, events: events)
    }

    /// The same without progress (the HTTP service).
    public func fetch(_ request: PreviewRequest) async throws(FetchError) -> FetchedPreview {
        try await answer(request, progress: false, events: { _ in })
    }

    /// The cache stage for a front that answers with JSON: a fresh preview
    /// is its bytes (no decoding, no encoding); anything else is a
    /// `PreviewRequest` carrying what was found. A hit in memory is answered
    /// on the caller's executor, in its turn (a hop would cost more than the
    /// lookup); the disk and the fleet are read off it (`@concurrent`), so
    /// that the daemon's dispatcher never waits on SQLite or Redis.
    nonisolated(nonsending) public func lookUp(url: String, options: FetchOptions) async -> CacheAnswer {
        guard let key = storedJSONKey(url: url, options: options) else {
            return .miss(PreviewRequest(url: url, options: options))
        }
        let found = cache.lookInMemory(key, url: url.trimmedWhitespace)
        if let json = answer(found, now: now()) { return .fresh(json) }
        return await lookBehindMemory(found, url: url, options: options)
    }

    /// `lookUp`'s memory step alone, without suspending (the HTTP service
    /// answers with it inside its connection's pipeline): a fresh preview
    /// in memory, when `admit` then lets the caller answer with it, counted
    /// as `lookUp` counts a hit in memory. Otherwise nil and nothing
    /// counted: the caller takes the `lookUp` path, which looks again.
    public func freshInMemory(url: String, options: FetchOptions, admit: () -> Bool) -> [UInt8]? {
        memoryKey(url: url, options: options).flatMap { freshInMemory($0, admit: admit) }
    }

    /// What `freshInMemory` works out from a request before it looks, kept
    /// by a caller that asks again for the same URL with the same options
    /// of the same engine (a connection sending one request again and
    /// again): nil for a request that the stored JSON cannot answer.
    public struct MemoryKey: Sendable {
        fileprivate let key: CacheKey
        fileprivate let name: String
        fileprivate let url: String
    }

    public func memoryKey(url: String, options: FetchOptions) -> MemoryKey? {
        storedJSONKey(url: url, options: options).map { MemoryKey(key: $0, name: $0.description, url: url.trimmedWhitespace) }
    }

    /// `freshInMemory` for a key worked out before (by this engine).
    public func freshInMemory(_ memoryKey: MemoryKey, admit: () -> Bool) -> [UInt8]? {
        let found = cache.lookInMemory(memoryKey.key, name: memoryKey.name, url: memoryKey.url)
        guard let json = found.freshJSON(at: now()), admit() else { return nil }
        cache.counters.looked(.memory)
        countHit(found)
        return json
    }

    /// The key of a request that the stored JSON can answer; nil for one
    /// that takes the full path: bytes (`includeData`) and thumbnails are
    /// not in the stored JSON, `reload` skips the cache, and a `[[site]]`
    /// rule may keep the URL from being fetched.
    private func storedJSONKey(url: String, options: FetchOptions) -> CacheKey? {
        guard options.cachePolicy != .reload, !options.includeData, options.thumbnail == nil,
            siteFetchRule(url)?.mode != .never
        else { return nil }
        return CacheKey(rawURL: url, language: language(options.acceptLanguage))
    }

    @concurrent
    private func lookBehindMemory(_ found: CacheLookup, url: String, options: FetchOptions) async -> CacheAnswer {
        var found = found
        let now = now()
        if !found.isFresh(at: now) { cache.lookBehindMemory(&found, now: now, asStored: true) }
        if let json = answer(found, now: now) { return .fresh(json) }
        return .miss(PreviewRequest(url: url, options: options, found: found))
    }

    /// `found`'s fresh preview as JSON, counted as a hit of its level.
    private func answer(_ found: CacheLookup, now: Date) -> [UInt8]? {
        guard let json = found.freshJSON(at: now) else { return nil }
        countHit(found)
        return json
    }

    private func countHit(_ found: CacheLookup) {
        cache.counters.hit(found.level)
        countUsage(hit: true)
    }

    /// The stages of a request the cache stage did not answer, in order.
    private func answer(
        _ request: PreviewRequest, progress: Bool, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> FetchedPreview {
        let request = try check(request)
        let cached: CachedAnswer
        do {
            cached = try cachedAnswer(key: request.key, url: request.url, options: request.options, found: request.found)
        } catch {
            countUsage(hit: error.fromCache)
            throw error
        }
        var fetched: FetchedPreview
        switch cached {
        case .serve(let metadata):
            countUsage(hit: true)
            fetched = FetchedPreview(metadata: await withThumbnails(metadata, options: request.options))
        case .fetch(let stale):
            countUsage(hit: false)
            let loaded = try await sharedLoad(request, revalidating: stale, progress: progress, events: events).get()
            fetched = await answered(loaded, for: request)
        }
        // Every answer names the URL this caller asked for, whoever's fetch or entry it is.
        fetched.metadata.originalURL = request.url
        return fetched
    }

    /// The answer stage: the flight's preview as this caller asked for it
    /// (the subresources' bytes, thumbnails), with the entry stored for it.
    private func answered(_ loaded: LoadedPreview, for request: CheckedRequest) async -> FetchedPreview {
        let metadata = await withData(loaded.metadata, options: request.options)
        return FetchedPreview(metadata: await withThumbnails(metadata, options: request.options), stored: loaded.stored)
    }

    /// The cache stage for a front that shows a preview (the LSP hover):
    /// the key built once, memory asked on the caller's executor, the disk
    /// and the fleet off it, each once. A stale preview is served as the
    /// `staleWhileRevalidate` policy serves it (marked, and refreshed in the
    /// background unless a `[[site]]` rule keeps the URL from the network);
    /// a cached failure, or nothing, is a miss carrying what was found into
    /// `fetch(_:events:)`.
    nonisolated(nonsending) public func cachedPreview(url: String, options: FetchOptions) async -> CachedPreview {
        guard let key = CacheKey(rawURL: url, language: language(options.acceptLanguage)) else {
            return .miss(PreviewRequest(url: url, options: options))
        }
        var found = cache.lookInMemory(key, url: url.trimmedWhitespace)
        let now = now()
        // Memory alone answers here; a level behind it (SQLite, Redis) is read off the caller.
        if !found.isFresh(at: now), (found.entry == nil && cache.keepsPreviews) || cache.fleet != nil {
            found = await Self.lookedBehindMemory(cache, found, now: now)
        }
        return preview(found, url: url, options: options, now: now)
    }

    @concurrent
    private static func lookedBehindMemory(_ cache: PreviewCache, _ found: CacheLookup, now: Date) async -> CacheLookup {
        var found = found
        cache.lookBehindMemory(&found, now: now, asStored: false)
        return found
    }

    /// `found` as `cachedPreview` answers it.
    private func preview(_ found: CacheLookup, url: String, options: FetchOptions, now: Date) -> CachedPreview {
        guard let entry = found.entry, case .metadata(var metadata) = entry.value else {
            return .miss(PreviewRequest(url: url, options: options, found: found))
        }
        let fresh = entry.isFresh(at: now)
        if fresh {
            cache.counters.hit(found.level)
        } else if (siteFetchRule(found.url)?.mode ?? .always) == .always {
            refreshInBackground(url: found.url, key: found.key, options: options)
        }
        countUsage(hit: true)
        metadata.originalURL = found.url
        metadata.fromCache = true
        metadata.stale = fresh ? nil : true
        return .preview(metadata)
    }

    /// The cached preview, decoded. A stored row is served as its bytes
    /// when it is fresh and asked for as stored (`PreviewCache.served`), so
    /// damage shows only here: such a row is a miss, said and dropped as the
    /// cache does when it decodes a row itself.
    public func cached(url: String) async -> LinkMetadata? {
        guard case .preview(let json)? = await cachedOutcome(url: url) else { return nil }
        do throws(StoredDamage) {
            return try StoredDamage.decode(LinkMetadata.self, from: json)
        } catch {
            guard let key = CacheKey(rawURL: url, language: language(nil)) else { return nil }
            logger.info("cache entry unreadable; dropped", metadata: ["key": "\(key)", "error": "\(error)"])
            await cache.dropStored(key)
            return nil
        }
    }

    nonisolated(nonsending) public func cachedJSON(url: String) async -> [UInt8]? {
        guard case .preview(let json)? = await cachedOutcome(url: url) else { return nil }
        return json
    }

    /// `getCached`. A hit in memory is answered on the caller's executor (a
    /// hop would cost more than the lookup); a read of the store runs on the
    /// global pool (`@concurrent`), so that a daemon's lookups use the other
    /// cores while its actor reads the next request.
    nonisolated(nonsending) public func cachedOutcome(url: String, acceptLanguage: String? = nil) async
        -> CachedOutcome?
    {
        guard let key = CacheKey(rawURL: url, language: language(acceptLanguage)) else { return nil }
        let (found, now) = (cache.lookInMemory(key, url: url.trimmedWhitespace), now())
        // Memory alone answers here; a level behind it (SQLite, Redis) is read off the caller.
        let outcome = found.entry != nil || (!cache.keepsPreviews && cache.fleet == nil)
            ? cache.served(found, now: now)
            : await Self.servedFromStore(cache, found, now: now)
        countUsage(hit: outcome != nil)
        return outcome
    }

    @concurrent
    private static func servedFromStore(_ cache: PreviewCache, _ found: CacheLookup, now: Date) async -> CachedOutcome? {
        cache.served(found, now: now)
    }
}
