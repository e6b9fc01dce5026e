import FoundationEssentials
import Logging
import Options

/// The store stage: how long a loaded preview stays fresh (`dated`: the
/// response's fields, an oEmbed `cache_age`, a `[[site]]` rule's
/// minTTL/maxTTL), and what is kept of a load in every cache level
/// (`remember`: a preview for its lifetime, a failure briefly); a `304`
/// renews the stored copy instead (`renew`).
struct StoreStage: Sendable {
    let cache: PreviewCache
    /// The `[[site]]` rules: a rule's TTLs and `failureTTL` decide first.
    let siteRules: [SiteRule]
    /// The fixed `--clock`: what previews show as fetched and expiring (the cache still counts real time).
    let clock: Date?
    let logger: Logger

    /// How long the preview stays fresh (the response's fields; an oEmbed
    /// answer's `cache_age` shortens it, within the cache's clamps; a
    /// `[[site]]` rule's minTTL/maxTTL have the last word), and the preview
    /// dated accordingly.
    func dated(
        _ metadata: inout LinkMetadata, fields: [String: String], cacheAge: Double?, url: String, now: Date
    ) -> Freshness {
        var fresh = Freshness(fields: fields, now: now)
        if let age = cacheAge { fresh.lifetime = min(fresh.lifetime, CacheLifetime.clamp(age)) }
        let freshness = ruled(fresh, url: url)
        // A fixed clock (`--clock`) makes both stable; the cache still counts real time.
        let shown = clock ?? now
        metadata.fetchedAt = LinkPeekEngine.iso8601(shown)
        metadata.expiresAt = LinkPeekEngine.iso8601(shown.addingTimeInterval(freshness.lifetime))
        metadata.fromCache = false
        return freshness
    }

    /// A `304` to a revalidation: the stored preview gets the new lifetime
    /// (and validators, when the 304 carries them) without the page being
    /// read or parsed again.
    func renew(
        _ stale: CacheEntry, metadata: LinkMetadata, fields: [String: String], key: CacheKey, url: String, now: Date
    ) async -> Result<LoadedPreview, FetchError> {
        var freshness = ruled(Freshness(fields: fields, now: now), url: url)
        freshness.etag = freshness.etag ?? stale.etag
        freshness.lastModified = freshness.lastModified ?? stale.lastModified
        var renewed = metadata
        renewed.originalURL = url
        renewed.expiresAt = LinkPeekEngine.iso8601((clock ?? now).addingTimeInterval(freshness.lifetime))
        renewed.fromCache = nil
        renewed.stale = nil
        let kept = await remember(.success(renewed), key: key, url: url, freshness: freshness, now: now)
        cache.counters.hit(.revalidated)
        renewed.fromCache = true
        return .success(LoadedPreview(metadata: renewed, stored: kept))
    }

    /// Stores what a fetch met: a preview for its lifetime (not at all with
    /// `no-store`, which also drops an older copy), or a failure briefly;
    /// a `[[site]]` rule's `failureTTL` decides first. The preview's entry
    /// as stored; nil when none was.
    @discardableResult
    func remember(
        _ outcome: Result<LinkMetadata, FetchError>, key: CacheKey, url: String, freshness: Freshness?, now: Date
    ) async -> CacheEntry? {
        // The first `[[site]]` rule for the URL may set a failure's lifetime.
        let rule = siteRule(for: url)
        switch outcome {
        case .success(let metadata):
            let freshness = freshness ?? Freshness()
            if freshness.noStore {
                logger.debug("cache entry dropped", metadata: ["url": "\(url)", "reason": "Cache-Control: no-store"])
                await cache.remove(key)
                return nil
            }
            let entry = CacheEntry(
                value: .metadata(metadata), expiresAt: now.addingTimeInterval(freshness.lifetime),
                mustRevalidate: freshness.noCache, etag: freshness.etag, lastModified: freshness.lastModified)
            // Aliases live in the store only: memory alone (`--no-cache`) need not normalise the final URL.
            let final = cache.keepsPreviews ? metadata.url.flatMap(key.with(url:)) : nil
            let aliases = final.map { $0 == key ? [] : [$0] } ?? []
            await cache.put(entry, key: key, originalURL: url, aliases: aliases, now: now)
            return entry
        case .failure(let error):
            // A rule's failureTTL keeps a timeout too, which is otherwise not kept; 0 keeps nothing.
            let ruled = rule?.failureLifetime(error)
            guard ruled != nil || CacheLifetime.caches(error), ruled != 0 else { return nil }
            let lifetime = ruled ?? CacheLifetime.failure(error)
            let entry = CacheEntry(value: .failure(error), expiresAt: now.addingTimeInterval(lifetime))
            await cache.put(entry, key: key, originalURL: url, aliases: [], now: now)
            return nil
        }
    }

    /// The first `[[site]]` rule matching `url`, if any.
    func siteRule(for url: String) -> SiteRule? {
        siteRules.isEmpty ? nil : siteRules.firstMatch(url: url)?.rule
    }

    /// `freshness` with its lifetime within the `minTTL`/`maxTTL` of the
    /// rule for `url`.
    func ruled(_ freshness: Freshness, url: String) -> Freshness {
        guard let rule = siteRule(for: url) else { return freshness }
        var freshness = freshness
        freshness.lifetime = rule.previewLifetime(freshness.lifetime)
        return freshness
    }
}
