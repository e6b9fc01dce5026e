import LinkPeek
import Synchronization

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

/// The engines a stdio daemon replaced (`SIGHUP`, `workspace/didChangeConfiguration`),
/// kept until each is shut down: its transfers stopped and its curl
/// threads joined (`LinkPeekEngine.shutdown`). Left to `deinit`, a replaced
/// engine's threads would only be told to stop, and a process exiting just
/// after could tear the TLS library down under one still ending. One that
/// nothing else holds any more (no request of its own still running) is
/// shut down at the next replacement; the rest at exit, after the current
/// engine (`shutdownAll`).
final class ReplacedEngines: Sendable {
    private let engines = Mutex<[LinkPeekEngine]>([])
    /// How many replaced engines were shut down so far, at replacements and at exit.
    private let shutDown = Atomic<Int>(0)

    /// The engine for `settings` after `predecessor` (the daemon's `makeService`).
    func engine(settings: Settings, succeeding predecessor: (any MetadataService)?) -> any MetadataService {
        let idle = engines.withLock { held -> [LinkPeekEngine] in
            var idle: [LinkPeekEngine] = []
            var index = held.startIndex
            while index < held.endIndex {
                if isKnownUniquelyReferenced(&held[index]) {
                    idle.append(held.remove(at: index))
                } else {
                    index += 1
                }
            }
            if let old = predecessor as? LinkPeekEngine { held.append(old) }
            return idle
        }
        for engine in idle { engine.shutdown() }
        shutDown.add(idle.count, ordering: .relaxed)
        return LinkPeekEngine(settings: settings, succeeding: predecessor)
    }

    /// Shuts down every replaced engine still held; returns how many that
    /// was, and how many replaced engines were shut down in all.
    @discardableResult
    func shutdownAll() -> (now: Int, inAll: Int) {
        let held = engines.withLock { held in
            defer { held.removeAll() }
            return held
        }
        for engine in held { engine.shutdown() }
        let inAll = shutDown.add(held.count, ordering: .relaxed).newValue
        return (held.count, inAll)
    }
}
