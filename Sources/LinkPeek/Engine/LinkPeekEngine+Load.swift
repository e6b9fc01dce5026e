import FoundationEssentials

extension LinkPeekEngine {
    /// Fetches (or revalidates), extracts and caches one URL: the shared
    /// work of a flight.
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
                if options.fetchSubresources {
                    // Bytes when any caller sharing the flight wants them (each gets what it asked for).
                    var shared = options
                    shared.includeData = flight.demand().data
                    metadata = await loadSubresources(of: metadata, options: shared, events: flight.send)
                }
                let now = now()
                var fresh = Freshness(fields: fields, now: now)
                // An oEmbed answer's `cache_age` shortens the lifetime, within the cache's clamps.
                if let age = loaded.cacheAge { fresh.lifetime = min(fresh.lifetime, CacheLifetime.clamp(age)) }
                // A `[[site]]` rule's minTTL/maxTTL have the last word.
                freshness = ruled(fresh, url: url)
                // A fixed clock (`--clock`) makes both stable; the cache still counts real time.
                let shown = clock ?? now
                metadata.fetchedAt = Self.iso8601(shown)
                metadata.expiresAt = Self.iso8601(shown.addingTimeInterval(freshness?.lifetime ?? 0))
                metadata.fromCache = false
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
