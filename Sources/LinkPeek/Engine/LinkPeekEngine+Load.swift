import FoundationEssentials

extension LinkPeekEngine {
    /// The media stage (`MediaStage`).
    static let mediaStage = MediaStage()

    /// Fetches (or revalidates), extracts and caches one URL: the shared
    /// work of a flight, as stages: source (`loadPreview`: the sources, then
    /// the page, which extracts; each request through the admit stage,
    /// `AdmitStage`), media (`MediaStage`), store (`StoreStage`: `dated`,
    /// then `remember`); a 304 renews the stored copy instead (`renew`).
    func load(
        url: String, key: CacheKey, options: FetchOptions, revalidating stale: CacheEntry?, timeout: Double,
        flight: FlightContext
    ) async -> Result<LoadedPreview, FetchError> {
        // While others load too, what this one stores is written behind (`CacheStore.put`).
        cache.store.beginLoad()
        defer { cache.store.endLoad() }
        let conditional = stale?.hasValidators == true
        let outcome: Result<LinkMetadata, FetchError>
        var freshness: Freshness?
        do throws(FetchError) {
            // Safe: `timeout` is clamped to (0, 3600] by the caller.
            let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
            let loaded = try await loadPreview(SourceLoad(
                url: url, deadline: deadline, headers: Self.pageHeaders(language: key.language, validating: stale),
                conditional: conditional, hops: PageHops(ignoresBackoff: options.cachePolicy == .reload),
                partials: { flight.demand().partials }, events: flight.send))
            switch loaded.page {
            case .notModified(let fields):
                guard let stale, case .metadata(let metadata) = stale.value else {
                    throw .httpStatus(304)
                }
                return await storing.renew(stale, metadata: metadata, fields: fields, key: key, url: url, now: now())
            case .wall(let wall, _):
                throw .blocked(wall)
            case .page(var metadata, let fields, _):
                metadata = await Self.mediaStage.answer(metadata, options: options, flight: flight, engine: self)
                freshness = storing.dated(&metadata, fields: fields, cacheAge: loaded.cacheAge, url: url, now: now())
                outcome = .success(metadata)
            }
        } catch {
            outcome = .failure(error)
        }
        // The bytes of subresources are not kept (the blob store is for that).
        let stored = outcome.map { metadata in
            var metadata = metadata
            metadata.icon?.data = nil
            metadata.image?.data = nil
            return metadata
        }
        let kept = await storing.remember(stored, key: key, url: url, freshness: freshness, now: now())
        return outcome.map { LoadedPreview(metadata: $0, stored: kept) }
    }

    /// The page request's headers: `Accept-Language` (the key's), and the
    /// validators of a stale copy being revalidated, when it has them.
    private static func pageHeaders(language: String, validating stale: CacheEntry?) -> [String] {
        var headers: [String] = []
        if !language.isEmpty { headers.append("Accept-Language: \(language)") }
        if let stale, stale.hasValidators {
            var validators = Freshness()
            validators.etag = stale.etag
            validators.lastModified = stale.lastModified
            headers += validators.conditionalHeaders
        }
        return headers
    }
}
