/// The source stage: where a preview comes from. Each source in
/// `LinkPeekEngine.sources` answers a URL by itself or passes it on (nil),
/// in order; the page (`PageSource`: oEmbed and the page itself) answers
/// when none does. Every request a source makes goes through `perform`
/// (the transfer, and the tape: `LinkPeekEngine+Tape`). A new source is a
/// type here and a place in that list.
protocol PreviewSource: Sendable {
    /// The preview of `load.url` from this source alone; nil to let the next one try.
    func answer(_ load: SourceLoad, engine: LinkPeekEngine) async -> LinkPeekEngine.PreviewLoad?
}

/// What a source is asked with: the URL, the load's deadline, the page
/// request's headers (`Accept-Language`, validators) and whether they
/// revalidate a stored copy; for the page, the hops before it, whether a
/// partial result is wanted, and where the flight's events go.
struct SourceLoad: Sendable {
    let url: String
    let deadline: ContinuousClock.Instant
    let headers: [String]
    let conditional: Bool
    let hops: LinkPeekEngine.PageHops
    let partials: @Sendable () -> Bool
    let events: @Sendable (ProviderEvent) -> Void
}

/// A site's API (`SiteEngines`): `LinkPeekEngine+Sites`.
struct SiteEngineSource: PreviewSource {
    func answer(_ load: SourceLoad, engine: LinkPeekEngine) async -> LinkPeekEngine.PreviewLoad? {
        await engine.siteAnswer(url: load.url, deadline: load.deadline, headers: load.headers)
    }
}

/// The page, with oEmbed before it and around it (`LinkPeekEngine+OEmbed`),
/// read and extracted by `loadPage` (`LinkPeekEngine+Page`): the source
/// that answers every URL, or says why not.
struct PageSource: Sendable {
    func answer(_ load: SourceLoad, engine: LinkPeekEngine) async throws(FetchError) -> LinkPeekEngine.PreviewLoad {
        try await engine.pageWithOEmbed(load)
    }
}

extension LinkPeekEngine {
    /// What a source gave: the page load, and how long an oEmbed answer in
    /// it may be cached (`cache_age`).
    struct PreviewLoad {
        var page: PageLoad
        var cacheAge: Double?

        /// A preview from `answer` alone.
        static func answer(_ answer: OEmbedResponse, url: String) -> PreviewLoad {
            PreviewLoad(page: .page(answer.preview(of: url), fields: [:]), cacheAge: answer.cacheAge)
        }
    }

    /// The sources asked before the page, in order.
    static let sources: [any PreviewSource] = [SiteEngineSource()]
    /// Asked when no source in `sources` answers.
    static let page = PageSource()

    /// The source stage: the first of `sources` to answer, else the page.
    func loadPreview(_ load: SourceLoad) async throws(FetchError) -> PreviewLoad {
        for source in Self.sources {
            if let answer = await source.answer(load, engine: self) { return answer }
        }
        return try await Self.page.answer(load, engine: self)
    }
}
