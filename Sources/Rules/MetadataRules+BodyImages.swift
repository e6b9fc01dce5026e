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
        "spinner", "placeholder",
    ]

    /// Body `<img>` candidates that pass the filters, in page order.
    static func bodyImageCandidates(in page: PageIndex) -> [MediaCandidate] {
        page.fallbacks.compactMap { element, order in
            guard element.name == "img", let url = bodyImageURL(element, resolver: page.resolver),
                  isContentImage(element, url: url) else { return nil }
            let resource = MediaResource(url: url, width: pixels(element["width"]), height: pixels(element["height"]),
                                         alt: TextCleaner.clean(element["alt"]))
            return MediaCandidate(resource: resource, source: "body img", order: order)
        }
    }

    /// The image's web URL: `src`, or where lazy loaders keep the real one
    /// while `src` is empty or an inline placeholder.
    static func bodyImageURL(_ image: HTMLElement, resolver: URLResolver) -> String? {
        for attribute in ["src", "data-src", "data-lazy-src", "data-original"] {
            if let url = resolver.resolveWeb(image[attribute]) { return url }
        }
        return nil
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
        if style.contains("display:none") || style.contains("visibility:hidden") { return true }
        let classes = (image["class"] ?? "").lowercased().split(whereSeparator: \.isWhitespace)
        return classes.contains { $0 == "hidden" || $0.hasSuffix("-hidden") }
    }
}
