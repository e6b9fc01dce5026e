import Foundation
import LinkPeek
import Options

/// A cache with all three levels for the tests that count lookups per
/// level (`CacheLookupsPerRequestTests`, `HoverCacheLookupsTests`): memory,
/// SQLite in a temporary directory of its own (removed with the fixture),
/// and a fleet whose Redis does not answer (nothing listens on port 1), so
/// that asking it is counted and answers nothing.
public final class ThreeLevelCache {
    /// A private address: the address policy refuses it, so a miss ends
    /// without any network, after the cache has been asked.
    public static let refusedURL = "http://127.0.0.1:1/page"

    /// The disk level's directory.
    public let directory: String

    public init(name: String) throws {
        directory = NSTemporaryDirectory() + "linkpeek-\(name)-\(UInt64.random(in: 0...UInt64.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// An engine on the three levels, with `rules`, logging nowhere.
    public func engine(rules: [SiteRule] = []) -> LinkPeekEngine {
        var settings = Settings()
        settings.cacheDir = directory
        settings.fleet = "redis://127.0.0.1:1"
        settings.siteRules = rules
        return LinkPeekEngine(settings: settings, logger: quietLogger)
    }
}
