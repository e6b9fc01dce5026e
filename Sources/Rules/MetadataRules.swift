import HTMLHead
import Metadata

/// Turns what the head scanner saw into a link preview.
///
/// Sources, best first: Open Graph (`og:*`, also when written in `name=`),
/// Twitter cards (`twitter:*`, also in `property=`), plain HTML (`<title>`,
/// `<meta name=description>`, `<link rel=icon|canonical>`, …), then JSON-LD
/// (schema.org) and microdata. Empty values fall through to the next source.
/// Last come fallbacks from what the body shows (players, images, bylines,
/// the first heading and paragraph; `+Body*`, `+TitleAffix`), used only when
/// the page declares nothing for that field.
/// Every field set is recorded in `sources` with the tag or rule that gave it.
///
/// Pure and synchronous: the same document and URL give the same metadata.
/// The target depends on nothing that could make it otherwise (Package.swift).
///
/// Where things live: `PageIndex` indexes the scanner's elements once;
/// `MetadataRules+TextFields` holds one rule per text field, its sources in
/// priority order; `+Media`/`+MediaSources` group Open Graph structured
/// properties and choose images, video and audio; `+Icons` chooses the icon;
/// `JSONLDGraph` and `URLResolver` do the parsing. To add a source, put it in
/// its field's rule at its priority with a `sources` label, add a test with a
/// hand-built `HeadDocument` (Tests/RulesTests), and run the conformance
/// test (Tests/integration) to see it generalises. No rule may key on a site.
public enum MetadataRules {
    /// Extracts every page-derived field of `LinkMetadata`.
    ///
    /// - Parameters:
    ///   - document: the scanner's output for the page.
    ///   - pageURL: the URL the page was read from. Relative URLs resolve
    ///     against `<base href>`, then this URL. It also fills `originalURL`
    ///     and `url`, which the engine may overwrite with what it knows.
    ///   - contentLanguage: the HTTP `Content-Language` header, the last
    ///     resort for `lang`.
    public static func extract(from document: HeadDocument, pageURL: String, contentLanguage: String? = nil) -> LinkMetadata {
        let page = PageIndex(document: document, pageURL: pageURL)
        var metadata = LinkMetadata(originalURL: pageURL)
        metadata.url = pageURL
        var sources: [String: String] = [:]
        if let declared = document.declaredEncodingThatDidNotFit {
            sources["encoding"] = "utf-8 (declared \(declared.lowercased()) did not fit)"
        }

        func record<Value>(_ field: String, _ picked: Picked<Value>?) -> Value? {
            guard let picked else { return nil }
            sources[field] = picked.source
            return picked.value
        }

        let titles = title(in: page)
        metadata.title = record("title", titles?.title)
        metadata.rawTitle = titles?.raw
        metadata.summary = record("summary", summary(in: page))
        let knownSplit = titles.map { (text: $0.raw ?? $0.title.value, affix: $0.split) }
        metadata.siteName = record("siteName", siteName(in: page, knownSplit: knownSplit))
        metadata.canonicalURL = record("canonicalURL", canonicalURL(in: page))
        metadata.type = record("type", page.metaText(["og:type"]))
        if let authors = record("author", authors(in: page)) {
            metadata.authors = authors
            metadata.author = authors.joined(separator: ", ")
            metadata.authorURL = record("authorURL", authorURL(in: page))
        }
        metadata.publishedTime = record("publishedTime", publishedTime(in: page))
        metadata.themeColor = record("themeColor", page.metaText(["theme-color", "msapplication-tilecolor"]))
        metadata.lang = record("lang", lang(in: page, contentLanguage: contentLanguage))
        metadata.locale = record("locale", page.metaText(["og:locale"]))

        // What the body shows counts only when the page declares nothing of
        // that kind: a declared source is the page's own choice for previews.
        var images = imageCandidates(in: page)
        let declaresImage = images.contains { !$0.isData }
        if !declaresImage {
            images += [videoPoster(in: page)].compactMap { $0 } + bodyImageCandidates(in: page).prefix(1)
        }
        metadata.image = record("image", best(images).map { Picked(value: $0.resource, source: $0.source) })
        metadata.images = pageOrdered(images)

        let icons = iconCandidates(in: page)
        metadata.icons = icons.isEmpty ? nil : icons.map(\.resource)
        if let icon = bestIcon(icons) {
            metadata.icon = record("icon", Picked(value: icon.resource, source: icon.rel.source))
        } else if let fallback = page.resolver.faviconFallback() {
            let guess = MediaResource(url: fallback, isUnverifiedFallback: true)
            metadata.icon = record("icon", Picked(value: guess, source: "favicon.ico fallback"))
        }

        var videos = videoCandidates(in: page)
        if videos.isEmpty {
            // A link to a video file is a download somewhere on the page: it
            // must not turn a page that names its own image into a video preview.
            videos = bodyMediaCandidates(.video, in: page).filter { !declaresImage || $0.source != "video link" }
        }
        if let video = videos.first(where: { isDirectlyPlayable($0.resource) }) {
            metadata.video = record("video", Picked(value: video.resource, source: video.source))
            metadata.remoteVideoURL = record("remoteVideoURL", Picked(value: video.resource.url, source: video.source))
        } else if let player = videos.first {
            metadata.video = record("video", Picked(value: player.resource, source: player.source))
        }
        let audio = best(audioCandidates(in: page)) ?? bodyMediaCandidates(.audio, in: page).first
        metadata.audio = record("audio", audio.map { Picked(value: $0.resource, source: $0.source) })

        metadata.richness = Richness(of: metadata)
        metadata.sources = sources.isEmpty ? nil : sources
        return metadata
    }
}
