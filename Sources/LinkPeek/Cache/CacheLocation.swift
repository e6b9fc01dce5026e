import FoundationEssentials

/// Where the persistent cache lives: `--cache-dir` / `cacheDir`, else
/// `$XDG_CACHE_HOME/linkpeek`, else `~/.cache/linkpeek`.
public enum CacheLocation {
    public static let fileName = CacheStore.fileName

    /// The directory for `configured` (nil: the default), from this environment.
    public static func directory(
        configured: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let configured, !configured.isEmpty { return configured }
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/linkpeek" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return home + "/.cache/linkpeek"
    }
}
