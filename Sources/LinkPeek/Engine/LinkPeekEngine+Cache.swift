import FoundationEssentials
import Logging
import Options

extension LinkPeekEngine {
    /// What the cache policy makes of what is cached.
    enum CachedAnswer {
        /// Answer with this (a hit; `stale` marked). Boxed, as `PageLoad.page` is.
        indirect case serve(LinkMetadata)
        /// Go to the network, revalidating this stale entry when it has validators.
        case fetch(revalidating: CacheEntry?)
    }

    /// Applies the policy to what the cache holds (`found`, the cache
    /// stage's lookup; nil: none was made, and each level is asked once
    /// here): `default` serves what is fresh; `reload` nothing;
    /// `cacheOnly` whatever is stored, else `notCached`;
    /// `staleWhileRevalidate` whatever is stored, refreshing a stale preview
    /// in the background. A cached failure is thrown as such (`fromCache`)
    /// while fresh (by `cacheOnly`, even stale).
    func cachedAnswer(key: CacheKey, url: String, options: FetchOptions, found: CacheLookup?) throws(FetchError)
        -> CachedAnswer
    {
        // A fetch for bytes (`includeData`) needs them: the cache keeps no bytes of previews.
        guard options.cachePolicy != .reload, !options.includeData || options.cachePolicy == .cacheOnly,
            let entry = cachedEntry(key: key, url: url, found: found)
        else {
            if options.cachePolicy == .cacheOnly {
                throw .failed(.notCached, "no cached preview for this URL, and the cache policy forbids the network.")
            }
            return .fetch(revalidating: nil)
        }
        let fresh = entry.isFresh(at: now())
        switch entry.value {
        case .failure(var error):
            guard fresh || options.cachePolicy == .cacheOnly else { return .fetch(revalidating: nil) }
            error.fromCache = true
            error.stale = !fresh
            throw error
        case .metadata(var metadata):
            metadata.fromCache = true
            metadata.stale = fresh ? nil : true
            switch options.cachePolicy {
            case .cacheOnly:
                return .serve(metadata)
            case .staleWhileRevalidate:
                if !fresh { refreshInBackground(url: url, key: key, options: options) }
                return .serve(metadata)
            case .default, .reload:
                return fresh ? .serve(metadata) : .fetch(revalidating: entry)
            }
        }
    }

    /// The entry the cache holds for `key`, fresh or stale: what the cache
    /// stage found, else each level asked once now; a fresh one counts as a
    /// hit of its level.
    private func cachedEntry(key: CacheKey, url: String, found: CacheLookup?) -> CacheEntry? {
        let now = now()
        var found = found ?? cache.lookInMemory(key, url: url)
        if !found.isFresh(at: now), !found.pastMemory { cache.lookBehindMemory(&found, now: now, asStored: false) }
        if found.isFresh(at: now) { cache.counters.hit(found.level) }
        return found.entry
    }

    /// Refreshes `key` once in the background (revalidating when it can),
    /// so that the next answer is fresh.
    func refreshInBackground(url: String, key: CacheKey, options: FetchOptions) {
        let name = key.description
        guard refreshing.withLock({ $0.insert(name).inserted }) else { return }
        var background = options
        background.cachePolicy = .default
        background.reportsPartialResults = false
        background.timeout = nil
        Task.detached {
            do throws(FetchError) { _ = try await self.fetch(url: url, options: background) { _ in } } catch {
                self.logger.info("background refresh failed; the stale preview stays", metadata: [
                    "url": "\(url)", "error": "\(error.message)",
                ])
            }
            _ = self.refreshing.withLock { $0.remove(name) }
        }
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
        settings.siteRules.isEmpty ? nil : settings.siteRules.firstMatch(url: url)?.rule
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
