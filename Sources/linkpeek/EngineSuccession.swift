import LinkPeek

extension LinkPeekEngine {
    /// An engine for `settings` that replaces `predecessor` (the daemon's
    /// engine before `workspace/didChangeConfiguration` or `SIGHUP` changed
    /// the settings): when both would keep the same cache, it takes over the
    /// predecessor's memory level and its open store, so a change of, say,
    /// the user agent loses no cached preview and opens no second database.
    /// What is the engine's own starts afresh: its transfers, the hosts
    /// held back after a 429 or 503 (`backoff`), the joining of fetches
    /// (`Coalescer`), the fleet connection, the memory LRU of image variants
    /// and the hit and miss counts `cache stats` shows (from the new start).
    convenience init(settings: Settings, succeeding predecessor: (any MetadataService)?) {
        guard let old = predecessor as? LinkPeekEngine, old.settings.keepsTheSameCache(as: settings) else {
            self.init(settings: settings)
            return
        }
        self.init(settings: settings, cache: old.cache.memory, store: old.cache.store, logger: old.logger)
    }
}

extension Settings {
    /// Whether an engine with `other` would open the same cache as one with these.
    func keepsTheSameCache(as other: Settings) -> Bool {
        cacheEnabled == other.cacheEnabled && cacheDir == other.cacheDir && cacheSizeLimit == other.cacheSizeLimit
            && cacheWritesBehind == other.cacheWritesBehind && record == other.record && replay == other.replay
    }
}
