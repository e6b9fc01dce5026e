/// How an oEmbed answer joins a preview: what the page declares wins, and
/// the answer fills what is missing — `title`, `author` (with `authorURL`),
/// `siteName` (`provider_name`), `image` (the thumbnail, or a photo's own
/// URL) and, for `video`/`rich`, the player page as `video`. A field the
/// rules only guessed from the body (the first `<h1>`, a body image, a
/// byline) counts as missing: a provider's answer is a declaration, which
/// is better evidence. Each field the answer gives is sourced `oembed`.
extension OEmbedResponse {
    /// Sources of body fallbacks (`MetadataRules+Body*`): what a page shows, not what it declares.
    static let guessedSources: Set<String> = [
        "h1", "first paragraph", "body img", "video poster", "video element", "audio element", "video link",
        "audio link", "rel=author link", "byline", "author page link", "favicon.ico fallback",
    ]

    static let source = "oembed"

    /// Whether the page left `field` to be filled: absent, or only guessed.
    static func isOpen(_ field: String, in metadata: LinkMetadata, present: Bool) -> Bool {
        guard present else { return true }
        return metadata.sources?[field].map(guessedSources.contains) ?? false
    }

    /// Whether an answer could add anything to `metadata` (so the endpoint is worth asking).
    static func couldFill(_ metadata: LinkMetadata) -> Bool {
        isOpen("title", in: metadata, present: metadata.title != nil)
            || isOpen("image", in: metadata, present: metadata.image != nil)
            || isOpen("author", in: metadata, present: metadata.author != nil)
            || metadata.siteName == nil
    }

    /// `metadata` with the fields the page left open filled from this answer.
    public func fill(_ metadata: LinkMetadata) -> LinkMetadata {
        var metadata = metadata
        var sources = metadata.sources ?? [:]
        if let title, Self.isOpen("title", in: metadata, present: metadata.title != nil) {
            metadata.title = title
            metadata.rawTitle = nil
            sources["title"] = Self.source
        }
        if let authorName, Self.isOpen("author", in: metadata, present: metadata.author != nil) {
            metadata.author = authorName
            metadata.authors = [authorName]
            metadata.authorURL = authorURL
            sources["author"] = Self.source
            if authorURL != nil { sources["authorURL"] = Self.source }
        }
        if let providerName, metadata.siteName == nil {
            metadata.siteName = providerName
            sources["siteName"] = Self.source
        }
        if let image = photo ?? thumbnail, Self.isOpen("image", in: metadata, present: metadata.image != nil) {
            metadata.image = image
            metadata.images = [image] + (metadata.images ?? []).filter { $0.url != image.url }
            sources["image"] = Self.source
        }
        if let player, Self.isOpen("video", in: metadata, present: metadata.video != nil) {
            metadata.video = player
            // A player page is not a file to play: no `remoteVideoURL`.
            metadata.remoteVideoURL = nil
            sources["video"] = Self.source
            sources["remoteVideoURL"] = nil
        }
        metadata.sources = sources.isEmpty ? nil : sources
        metadata.richness = Richness(of: metadata)
        return metadata
    }

    /// A preview from this answer alone (no page was read): the answer's
    /// fields, and the site's `/favicon.ico` as the unverified icon guess
    /// a page without icons gets.
    public func preview(of url: String) -> LinkMetadata {
        var metadata = LinkMetadata(originalURL: url)
        metadata.url = url
        if let fallback = URLResolver(pageURL: url, baseHref: nil).faviconFallback() {
            metadata.icon = MediaResource(url: fallback, isUnverifiedFallback: true)
            metadata.sources = ["icon": "favicon.ico fallback"]
        }
        return fill(metadata)
    }
}
