import FoundationEssentials
import Options

/// Where the persistent cache lives: `--cache-dir` / `cacheDir`, else the
/// XDG rule (`XDG.cacheDirectory`: `$XDG_CACHE_HOME/linkpeek`, else
/// `~/.cache/linkpeek`), the one rule `initialize`'s `cacheDir` reports too.
public enum CacheLocation {
    public static let fileName = CacheStore.fileName

    /// The directory for `configured` (nil: the default), from this environment.
    public static func directory(
        configured: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let configured, !configured.isEmpty { return configured }
        return XDG.cacheDirectory(environment)
    }
}
