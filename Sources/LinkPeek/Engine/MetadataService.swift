import Logging

/// What the daemon and the CLI need from the engine: fetch one URL (honouring
/// task cancellation), and read the cache without touching the network.
///
/// `LinkPeekEngine` is the real implementation; tests of the layers above
/// use a fake.
public protocol MetadataService: Sendable {
    /// Fetches `url`, reporting progress through `events` (called from any
    /// thread, in order, never after this returns). Cancelling the calling
    /// task ends the fetch promptly with `FetchError.cancelled`. Two calls for
    /// the same URL at once share one transfer.
    func fetch(
        url: String,
        options: FetchOptions,
        events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> LinkMetadata

    /// The cached preview for `url`, or nil; never touches the network.
    func cached(url: String) async -> LinkMetadata?

    /// The same as `cached(url:)`, already encoded as JSON (`LinkMetadata.jsonBytes()`).
    ///
    /// It runs on the caller's executor (`nonisolated(nonsending)`): a hit in
    /// memory is a lookup and a copy, and hopping to the global executor and
    /// back around it would cost more than the lookup (each hop can wake a
    /// thread). An implementation that may block, a disk read, should move
    /// that work off the caller (`@concurrent`).
    nonisolated(nonsending) func cachedJSON(url: String) async -> [UInt8]?

    /// `getCached`: what is stored for `url` in `acceptLanguage`, fresh or
    /// stale: a preview's JSON (`fromCache`, `stale` when past its
    /// lifetime) or a cached failure (`fromCache`); nil when nothing is.
    nonisolated(nonsending) func cachedOutcome(url: String, acceptLanguage: String?) async -> CachedOutcome?

    /// The cache stage of a `fetch` for a front that answers with JSON: a
    /// fresh cache hit as its JSON (no decoding, no encoding), or the
    /// request, with what the cache held, for `fetch(_:events:)`. Runs on
    /// the caller's executor up to a miss in memory; an implementation that
    /// reads a disk or the network moves that off it (`@concurrent`).
    nonisolated(nonsending) func lookUp(url: String, options: FetchOptions) async -> CacheAnswer

    /// The cache stage of a front that shows a preview at once (the LSP
    /// hover): a cached preview, fresh or stale (served as the
    /// `staleWhileRevalidate` policy serves it, refreshed behind the
    /// answer), or the request, with what the cache held, for
    /// `fetch(_:events:)`. Runs on the caller's executor up to a miss in
    /// memory, as `lookUp` does.
    nonisolated(nonsending) func cachedPreview(url: String, options: FetchOptions) async -> CachedPreview

    /// `fetch` of a request the cache stage did not answer, with what it
    /// found (no cache level is asked again).
    func fetch(
        _ request: PreviewRequest, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> FetchedPreview

    /// Saves `url` (fetching it when nothing is cached) with `tags` (nil
    /// keeps a saved link's tags); the preview with `savedAt` and `tags`.
    ///
    /// A page that cannot be fetched (any failure but a cancel) is saved all
    /// the same with what is known: the URL, `title` when given, and the
    /// failure (`LinkMetadata.failure`). `title` also stands in for a page
    /// that has none.
    func save(url: String, tags: [String]?, title: String?) async throws(FetchError) -> LinkMetadata

    /// Forgets a saved link; whether there was one.
    func unsave(url: String) async throws(FetchError) -> Bool

    /// Saved links, newest first, each a preview with `savedAt` and `tags`.
    func saved(tag: String?, limit: Int, offset: Int) async -> [LinkMetadata]

    /// `url`'s image, or a page's preview image or icon, transformed
    /// (`getMedia`, `linkpeek image`). Cancelling the calling task ends it.
    func media(url: String, transform: ImageTransform, timeout: Double?) async throws(FetchError) -> MediaImage

    /// The card image of `metadata` (`CardImage`): a thumbnail of its image
    /// when a fetch verified that image (`MediaResource.isVerified`), made
    /// by the image pipeline and cached as a variant; nil otherwise, and
    /// when it is over `CardImage.maximumBytes`. Without `allowNetwork`
    /// only what the image cache holds is used. Never fails: a card stands
    /// without its image.
    func cardImage(for metadata: LinkMetadata, allowNetwork: Bool) async -> CardImage?

    /// The same, reporting its stages through `events` (`.progress` only:
    /// the page's stages when a page is fetched, `image` while the source
    /// image is fetched, `transforming`), called as `fetch` calls it.
    func media(
        url: String, transform: ImageTransform, timeout: Double?, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> MediaImage

    /// Writes what the service holds back (the cache's write-behind
    /// queue) before the process ends; blocks briefly.
    func flush()

    /// Ends the service before the process exits: its transfers stop and
    /// their threads end (`LinkPeekEngine.shutdown`), then `flush`. Blocks
    /// briefly (two seconds at most for the transfers).
    func shutdown()

    /// Where the service says what it decided (`LinkPeekEngine`'s logger);
    /// the shared parts (`prefetch`) log here too.
    var logger: Logger { get }
}

extension MetadataService {
    public func flush() {}

    public func shutdown() { flush() }

    nonisolated(nonsending) public func cachedOutcome(url: String, acceptLanguage: String?) async -> CachedOutcome? {
        await cachedJSON(url: url).map(CachedOutcome.preview)
    }

    /// A service without a cache of its own answers nothing at once.
    nonisolated(nonsending) public func lookUp(url: String, options: FetchOptions) async -> CacheAnswer {
        .miss(PreviewRequest(url: url, options: options))
    }

    /// `cached(url:)`, a stale preview refreshed through a
    /// `staleWhileRevalidate` fetch, for a service without a cache stage.
    nonisolated(nonsending) public func cachedPreview(url: String, options: FetchOptions) async -> CachedPreview {
        guard let cached = await cached(url: url) else { return .miss(PreviewRequest(url: url, options: options)) }
        guard cached.stale == true else { return .preview(cached) }
        var refresh = options
        refresh.cachePolicy = .staleWhileRevalidate
        refresh.reportsPartialResults = false
        do throws(FetchError) {
            return .preview(try await fetch(url: url, options: refresh, events: { _ in }))
        } catch {
            logger.info("a stale preview is shown: the refresh failed", metadata: [
                "url": "\(url)", "error": "\(error.message)",
            ])
            return .preview(cached)
        }
    }

    public func fetch(
        _ request: PreviewRequest, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> FetchedPreview {
        FetchedPreview(metadata: try await fetch(url: request.url, options: request.options, events: events))
    }

    /// `media` for a service without a network (a test fake implements
    /// `media` with it): `data:` URLs only. Not a default: a service that
    /// leaves out `media`, `save`, `unsave` or `saved` does not compile.
    public func dataURLMedia(url: String, transform: ImageTransform) async throws(FetchError) -> MediaImage {
        guard DataURL.isDataURL(url) else { throw .image(.unsupportedImage, "this service transforms data: URLs only.") }
        return try await DataURL.media(url, transform: transform, worker: DataURL.worker)
    }

    /// Without progress: a service that reports none.
    public func media(
        url: String, transform: ImageTransform, timeout: Double?, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> MediaImage {
        try await media(url: url, transform: transform, timeout: timeout)
    }

    /// A service without a logger of its own logs under `linkpeek`.
    public var logger: Logger { Logger(label: "linkpeek") }

    /// Encodes `cached(url:)`; an implementation that keeps the bytes does better.
    nonisolated(nonsending) public func cachedJSON(url: String) async -> [UInt8]? {
        try? await cached(url: url)?.jsonBytes()
    }
}
