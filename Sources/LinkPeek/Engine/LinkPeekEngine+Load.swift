import FoundationEssentials

extension LinkPeekEngine {
    /// Fetches (or revalidates), extracts and caches one URL: the shared
    /// work of a flight, as stages: the source stage (`loadPreview`: the
    /// sources, then the page, which extracts), `media`, `dated`, the
    /// store (`remember`); a 304 renews the stored copy instead (`renew`).
    func load(
        url: String, key: CacheKey, options: FetchOptions, revalidating stale: CacheEntry?, timeout: Double,
        flight: FlightContext
    ) async -> Result<LoadedPreview, FetchError> {
        // While others load too, what this one stores is written behind (`CacheStore.put`).
        cache.store.beginLoad()
        defer { cache.store.endLoad() }
        var headers: [String] = []
        if !key.language.isEmpty { headers.append("Accept-Language: \(key.language)") }
        let conditional = stale?.hasValidators == true
        if let stale, conditional {
            var validators = Freshness()
            validators.etag = stale.etag
            validators.lastModified = stale.lastModified
            headers += validators.conditionalHeaders
        }
        let outcome: Result<LinkMetadata, FetchError>
        var freshness: Freshness?
        do throws(FetchError) {
            // Safe: `timeout` is clamped to (0, 3600] by the caller.
            let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
            let loaded = try await loadPreview(SourceLoad(
                url: url, deadline: deadline, headers: headers, conditional: conditional,
                hops: PageHops(ignoresBackoff: options.cachePolicy == .reload),
                partials: { flight.demand().partials }, events: flight.send))
            switch loaded.page {
            case .notModified(let fields):
                guard let stale, case .metadata(let metadata) = stale.value else {
                    throw .httpStatus(304)
                }
                return await renew(stale, metadata: metadata, fields: fields, key: key, url: url)
            case .wall(let wall, _):
                throw .blocked(wall)
            case .page(var metadata, let fields, _):
                metadata = await media(of: metadata, options: options, flight: flight)
                freshness = dated(&metadata, fields: fields, cacheAge: loaded.cacheAge, url: url)
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
        let kept = await remember(stored, key: key, url: url, freshness: freshness, now: now())
        return outcome.map { LoadedPreview(metadata: $0, stored: kept) }
    }

    /// The media stage: the subresources (icon, image) when asked for, with
    /// bytes when any caller sharing the flight wants them (each gets what
    /// it asked for).
    private func media(of metadata: LinkMetadata, options: FetchOptions, flight: FlightContext) async -> LinkMetadata {
        guard options.fetchSubresources else { return metadata }
        var shared = options
        shared.includeData = flight.demand().data
        return await loadSubresources(of: metadata, options: shared, events: flight.send)
    }

    /// How long the preview stays fresh (the response's fields; an oEmbed
    /// answer's `cache_age` shortens it, within the cache's clamps; a
    /// `[[site]]` rule's minTTL/maxTTL have the last word), and the preview
    /// dated accordingly.
    private func dated(
        _ metadata: inout LinkMetadata, fields: [String: String], cacheAge: Double?, url: String
    ) -> Freshness {
        let now = now()
        var fresh = Freshness(fields: fields, now: now)
        if let age = cacheAge { fresh.lifetime = min(fresh.lifetime, CacheLifetime.clamp(age)) }
        let freshness = ruled(fresh, url: url)
        // A fixed clock (`--clock`) makes both stable; the cache still counts real time.
        let shown = clock ?? now
        metadata.fetchedAt = Self.iso8601(shown)
        metadata.expiresAt = Self.iso8601(shown.addingTimeInterval(freshness.lifetime))
        metadata.fromCache = false
        return freshness
    }

    /// A `304` to a revalidation: the stored preview gets the new lifetime
    /// (and validators, when the 304 carries them) without the page being
    /// read or parsed again.
    private func renew(
        _ stale: CacheEntry, metadata: LinkMetadata, fields: [String: String], key: CacheKey, url: String
    ) async -> Result<LoadedPreview, FetchError> {
        let now = now()
        var freshness = ruled(Freshness(fields: fields, now: now), url: url)
        freshness.etag = freshness.etag ?? stale.etag
        freshness.lastModified = freshness.lastModified ?? stale.lastModified
        var renewed = metadata
        renewed.originalURL = url
        renewed.expiresAt = Self.iso8601((clock ?? now).addingTimeInterval(freshness.lifetime))
        renewed.fromCache = nil
        renewed.stale = nil
        let kept = await remember(.success(renewed), key: key, url: url, freshness: freshness, now: now)
        cache.counters.hit(.revalidated)
        renewed.fromCache = true
        return .success(LoadedPreview(metadata: renewed, stored: kept))
    }
}
