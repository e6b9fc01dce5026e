import LinkPeek
import LinkPeekProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Server {
    /// The settings this session runs with, for the `initialize` result.
    func settingsInEffect() -> SettingsInEffect {
        SettingsInEffect(
            allowPrivateNetwork: settings.allowPrivateNetwork, timeout: settings.timeout,
            maxConcurrency: settings.maxConcurrency, cacheDir: settings.cacheDir ?? Self.defaultCacheDirectory(),
            hoverTimeout: lsp.hoverTimeout, prefetch: lsp.prefetch, hoverImages: lsp.hoverImages,
            userAgent: settings.userAgent, oembed: settings.oembed,
            acceptLanguage: settings.acceptLanguage ?? "")
    }

    /// `$XDG_CACHE_HOME/linkpeek`, else `$HOME/.cache/linkpeek` (the XDG rule).
    static func defaultCacheDirectory() -> String {
        if let xdg = environment("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/linkpeek" }
        return (environment("HOME") ?? "") + "/.cache/linkpeek"
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let string = String(cString: value)
        return string.isEmpty ? nil : string
    }
}
