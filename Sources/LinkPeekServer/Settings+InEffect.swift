import LinkPeek
import LinkPeekProtocol

extension Server {
    /// The settings this session runs with, for the `initialize` result.
    func settingsInEffect() -> SettingsInEffect {
        SettingsInEffect(
            allowPrivateNetwork: settings.allowPrivateNetwork, timeout: settings.timeout,
            maxConcurrency: settings.maxConcurrency, cacheDir: CacheLocation.directory(configured: settings.cacheDir),
            hoverTimeout: lsp.hoverTimeout, prefetch: lsp.prefetch, hoverImages: lsp.hoverImages,
            userAgent: settings.userAgent, oembed: settings.oembed,
            acceptLanguage: settings.acceptLanguage ?? "")
    }
}
