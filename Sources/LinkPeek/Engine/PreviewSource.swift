/// Where a preview may come from before the page: each source answers a
/// URL by itself or passes it on (nil), asked in the order of
/// `LinkPeekEngine.sources`; the page (with oEmbed: `loadPreview`) is read
/// when none answers. A new source is a type here and a place in that list.
protocol PreviewSource: Sendable {
    /// The preview of `load.url` from this source alone; nil to let the next one try.
    func answer(_ load: SourceLoad, engine: LinkPeekEngine) async -> LinkPeekEngine.PreviewLoad?
}

/// What a source is asked with: the URL, the load's deadline, and the page
/// request's headers (`Accept-Language`, validators).
struct SourceLoad: Sendable {
    let url: String
    let deadline: ContinuousClock.Instant
    let headers: [String]
}

/// A site's API (`SiteEngines`): `LinkPeekEngine+Sites`.
struct SiteEngineSource: PreviewSource {
    func answer(_ load: SourceLoad, engine: LinkPeekEngine) async -> LinkPeekEngine.PreviewLoad? {
        await engine.siteAnswer(url: load.url, deadline: load.deadline, headers: load.headers)
    }
}

extension LinkPeekEngine {
    /// The sources asked before the page, in order.
    static let sources: [any PreviewSource] = [SiteEngineSource()]
}
