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
}
