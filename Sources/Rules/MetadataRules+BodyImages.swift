import FoundationEssentials
import HTMLHead
import Metadata

/// The image a page shows without declaring one: the first `<img>` in its
/// body that can stand for the page, after filtering out what a page's body
/// is full of and a preview must not show — tracking pixels, spacers, icons,
/// logos, avatars, emoji and inline placeholders.
extension MetadataRules {
    /// The smallest declared side an image may have to be a preview image;
    /// below it are icons, avatars and pixels.
    static let minimumBodyImageSide = 100

    /// Words in an image's URL, class, id or alt that mark it as page
    /// furniture or tracking rather than content.
    static let nonContentImageWords = [
        "pixel", "spacer", "blank.gif", "transparent.gif", "clear.gif", "1x1", "beacon", "tracking",
        "doubleclick", "/ads/", "logo", "avatar", "gravatar", "icon", "emoji", "sprite", "badge", "loader",
        "spinner", "placeholder", "/author", "byline", "headshot",
    ]

    /// Body `<img>` candidates that pass the filters, in page order.
    ///
    /// A lazy-loaded picture is often written twice: an `<img>` whose `src`
    /// is a placeholder (an inline pixel, a grey `.gif`) that a script
    /// replaces, and right after it a `<noscript>` holding the real `<img>`
    /// for readers without scripts. When the visible one names no URL of a
    /// lazy loader (`data-src` and the like, which are the real one), the
    /// `<noscript>` one next to it stands for it, in its place on the page.
    static func bodyImageCandidates(in page: PageIndex) -> [MediaCandidate] {
        var candidates: [MediaCandidate] = []
        // The last visible `<img>` recorded, while nothing else was recorded after it.
        var visible: (element: HTMLElement, order: Int, candidate: Int?)?
        for (element, order) in page.fallbacks {
            let previous = visible
            visible = nil
            guard element.name == "img" else { continue }
            let candidate = bodyImageCandidate(element, order: order, resolver: page.resolver)
            if element.context.isInside(.noscript), let previous, previous.order + 1 == order,
               lazyLoaderURL(previous.element, resolver: page.resolver) == nil, var real = candidate {
                real.order = previous.order
                real.resource.width = real.resource.width ?? pixels(previous.element["width"])
                real.resource.height = real.resource.height ?? pixels(previous.element["height"])
                real.resource.alt = real.resource.alt ?? TextCleaner.clean(previous.element["alt"])
                if let at = previous.candidate { candidates[at] = real } else { candidates.append(real) }
                continue
            }
            if let candidate { candidates.append(candidate) }
            if !element.context.isInside(.noscript) {
                visible = (element, order, candidate == nil ? nil : candidates.count - 1)
            }
        }
        return candidates
    }

    /// The candidate one body `<img>` gives, when it passes the filters.
    private static func bodyImageCandidate(_ element: HTMLElement, order: Int, resolver: URLResolver) -> MediaCandidate? {
        guard let url = bodyImageURL(element, resolver: resolver), isContentImage(element, url: url) else { return nil }
        let resource = MediaResource(url: url, width: pixels(element["width"]), height: pixels(element["height"]),
                                     alt: TextCleaner.clean(element["alt"]))
        return MediaCandidate(resource: resource, source: "body img", order: order)
    }


    /// The image's web URL: where lazy loaders keep the real one (they
    /// swap it into `src`, which holds a placeholder until then: inline, or
    /// a file such as `placeholder.gif`), else `src`.
    /// A lazy loader's `data-srcset` or `data-lazy-srcset` counts as such a place; a `srcset`
    /// only when `src` gives nothing. Of a set, the widest candidate.
    static func bodyImageURL(_ image: HTMLElement, resolver: URLResolver) -> String? {
        if let url = lazyLoaderURL(image, resolver: resolver) { return url }
        if let url = resolver.resolveWeb(image["src"]) { return url }
        return widestCandidate(image["srcset"]).flatMap(resolver.resolveWeb)
    }

    /// The web URL a lazy loader keeps for the image, if any.
    static func lazyLoaderURL(_ image: HTMLElement, resolver: URLResolver) -> String? {
        for attribute in ["data-src", "data-lazy-src", "data-original"] {
            if let url = resolver.resolveWeb(image[attribute]) { return url }
        }
        for attribute in ["data-srcset", "data-lazy-srcset"] {
            if let url = widestCandidate(image[attribute]).flatMap(resolver.resolveWeb) { return url }
        }
        return nil
    }

    /// The URL of a `srcset`'s widest candidate ("a.jpg 400w, b.jpg
    /// 800w" → "b.jpg"; by density, "2x", the densest), else its last.
    /// Candidates are parted by a comma and white space: a comma inside a
    /// URL ("w_400,h_300") has none after it.
    static func widestCandidate(_ srcset: String?) -> String? {
        guard let srcset, !srcset.isEmpty else { return nil }
        var best: (url: String, size: Double)?
        for candidate in srcset.split(separator: ", ") {
            let words = candidate.split(whereSeparator: \.isWhitespace)
            guard let url = words.first else { continue }
            let size = words.dropFirst().first.flatMap { Double($0.dropLast()) } ?? 0
            if best == nil || size >= (best?.size ?? 0) { best = (String(url), size) }
        }
        return best?.url
    }

    /// False for images that are too small by their declared size, hidden,
    /// vector drawings (icons and logos, almost always), or named like
    /// page furniture or trackers.
    static func isContentImage(_ image: HTMLElement, url: String) -> Bool {
        for side in [image["width"], image["height"]] {
            if let value = pixels(side), value < minimumBodyImageSide { return false }
        }
        if image["hidden"] != nil || image["aria-hidden"] == "true" || isHiddenByStyle(image) { return false }
        let path = (URL(string: url)?.path ?? url).lowercased()
        if path.hasSuffix(".svg") || path.hasSuffix(".ico") { return false }
        let described = [url, image["class"], image["id"], image["alt"]].compactMap { $0 }
        if described.allSatisfy(ASCIIText.isASCII) {
            return !nonContentImageWords.contains { word in described.contains { ASCIIText.contains($0, word) } }
        }
        let lowered = described.map { $0.lowercased() }
        return !nonContentImageWords.contains { word in lowered.contains { $0.contains(word) } }
    }

    /// Hidden by its class (`hidden`, `visually-hidden`, `a11y-hidden`) or
    /// inline style: how tracking pixels in `<noscript>` keep out of sight.
    static func isHiddenByStyle(_ image: HTMLElement) -> Bool {
        let style = (image["style"] ?? "").lowercased().filter { !$0.isWhitespace }
        if ASCIIText.holds(style, "display:none") || ASCIIText.holds(style, "visibility:hidden") { return true }
        let classes = (image["class"] ?? "").lowercased().split(whereSeparator: \.isWhitespace)
        return classes.contains { $0 == "hidden" || $0.hasSuffix("-hidden") }
    }
}
