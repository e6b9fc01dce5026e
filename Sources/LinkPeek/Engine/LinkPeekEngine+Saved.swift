import FoundationEssentials

extension LinkPeekEngine {
    public func save(url: String, tags: [String]?, title: String? = nil) async throws(FetchError) -> LinkMetadata {
        let url = try URLCheck.validate(url).get()
        guard let key = CacheKey(rawURL: url, language: language(nil)) else { throw .failed(.invalidURL, "\"\(url)\" is not a valid URL.") }
        // What is cached, fresh or stale, is good enough to pin: revalidation refreshes it later.
        // Each level asked once: what is found goes with the fetch when it is not a preview.
        let now = now()
        var found = cache.lookInMemory(key, url: url)
        if found.entry?.isFresh(at: now) != true { cache.lookBehindMemory(&found, now: now, asStored: false) }
        var metadata: LinkMetadata
        if let entry = found.entry, case .metadata(let cached) = entry.value {
            if entry.isFresh(at: now) { cache.counters.hit(found.level) }
            metadata = cached
        } else {
            do {
                let request = PreviewRequest(url: url, options: FetchOptions(reportsPartialResults: false), found: found)
                metadata = try await fetch(request, events: { _ in }).metadata
            } catch where error.kind != .cancelled {
                // The link is worth keeping even when its page fails now: what is known, and why.
                metadata = LinkMetadata(originalURL: url)
                metadata.failure = SavedFailure(error)
            }
        }
        if metadata.title == nil { metadata.title = title }
        metadata.originalURL = url
        metadata.fromCache = true
        metadata.stale = nil
        let body: [UInt8]?
        do { body = try metadata.jsonBytes() } catch {
            // Not expected (a preview is strings and numbers); the link is still worth keeping.
            logger.warning("saved link kept without its preview", metadata: ["url": "\(url)", "error": "\(error)"])
            body = nil
        }
        let savedAt = Date()
        guard await cache.store.save(url: key.url, key: key.description, tags: tags, body: body, at: savedAt) else {
            throw .unknown("the saved link could not be written to the cache database.")
        }
        let record = cache.store.saved().first { $0.url == key.url }
        metadata.savedAt = Self.iso8601(record.map { Date(timeIntervalSince1970: $0.savedAt) } ?? savedAt)
        metadata.tags = record?.tags ?? tags ?? []
        return metadata
    }

    public func unsave(url: String) async throws(FetchError) -> Bool {
        guard let key = CacheKey(rawURL: url) else { throw .failed(.invalidURL, "\"\(url)\" is not a valid URL.") }
        guard let removed = await cache.store.unsave(url: key.url) else {
            throw .unknown("the saved link could not be removed from the cache database.")
        }
        return removed
    }

    public func saved(tag: String?, limit: Int, offset: Int) async -> [LinkMetadata] {
        await cache.store.savedLinks(tag: tag, limit: limit, offset: offset)
    }
}
