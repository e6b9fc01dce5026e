/// Which body elements are kept as fallbacks.
///
/// A page that declares no `og:image`, `og:audio` or author still shows
/// them: in `<video>`/`<audio>` players, in `<img>` elements, in a byline.
/// The rules use these only when nothing declared exists. Each kind has its
/// own small cap, because the live fetch reads up to 64 KiB of body and a
/// long page must not turn into thousands of recorded elements.
extension ElementCollector {
    /// The kinds of fallback element, each counted against its own cap.
    enum FallbackKind: CaseIterable {
        /// `<video>` and `<audio>` (their `src`, `type`, `poster`).
        case player
        /// `<source>` and `<track>` inside a recorded player.
        case playerSource
        /// `<img>`.
        case image
        /// `<a>` to a media file or an author page (`/author…`, `?author=`), with its text.
        case link
        /// Any element whose `class`, `id` or `rel` says author or byline, with its text.
        case byline
        /// `<h1>`, with its text.
        case heading
        /// `<p>`, with its text.
        case paragraph
        /// `<time datetime>`, with its text.
        case time
    }

    /// How many elements of each kind are kept, and how much text each may carry.
    struct FallbackLimits {
        var players = 20
        var playerSources = 40
        var images = 50
        var links = 20
        var bylines = 20
        var headings = 3
        var paragraphs = 10
        var times = 10
        var textBytes = 1024

        func cap(_ kind: FallbackKind) -> Int {
            switch kind {
            case .player: players
            case .playerSource: playerSources
            case .image: images
            case .link: links
            case .byline: bylines
            case .heading: headings
            case .paragraph: paragraphs
            case .time: times
            }
        }
    }

    /// File extensions of audio and video a link may point at directly.
    static let mediaExtensions: [StaticString] = [
        ".mp3", ".m4a", ".ogg", ".oga", ".opus", ".wav", ".aac", ".flac",
        ".mp4", ".m4v", ".webm", ".mov", ".ogv",
    ]

    /// The fallback kind of a body element, or nil when it is not kept.
    /// `insidePlayer` is true while a recorded `<video>`/`<audio>` is open;
    /// `bylinesFull` skips the class/id tests once no byline can be kept,
    /// since every other element of a long page would pay for them.
    static func fallbackKind(
        _ name: String, _ attributes: AttributeList, insidePlayer: Bool, bylinesFull: Bool = false
    ) -> FallbackKind? {
        switch name {
        case "video", "audio":
            return .player
        case "source", "track":
            // Outside a player, `<source>` belongs to `<picture>`: an image
            // variant, already covered by its `<img>`.
            return insidePlayer ? .playerSource : nil
        case "img":
            return .image
        case "h1":
            return .heading
        case "p":
            return !bylinesFull && isByline(attributes) ? .byline : .paragraph
        case "time":
            return attributes.contains("datetime") ? .time : nil
        case "a":
            if attributes.value(of: "rel", containsLowercased: "author")
                || attributes.value(of: "href", containsLowercased: "/author", "author=")
                || linksToMediaFile(attributes.value(of: "href")) {
                return .link
            }
            return !bylinesFull && isByline(attributes) ? .byline : nil
        case "html", "head", "body", "script", "style", "svg", "math", "template", "noscript", "meta", "link":
            return nil
        default:
            return !bylinesFull && isByline(attributes) ? .byline : nil
        }
    }

    /// True when `class`, `id` or `rel` names an author or byline, the way
    /// themes and CMSs mark them (`class="author-name"`, `id="byline"`,
    /// `rel="author"`).
    static func isByline(_ attributes: AttributeList) -> Bool {
        attributes.value(of: "class", containsLowercased: "author", "byline")
            || attributes.value(of: "id", containsLowercased: "author", "byline")
            || attributes.value(of: "rel", containsLowercased: "author", "byline")
    }

    /// True when `href`'s path (before any query or fragment) ends in an
    /// audio or video file extension.
    static func linksToMediaFile(_ href: String?) -> Bool {
        guard let href, !href.isEmpty else { return false }
        let path = href.prefix { $0 != "?" && $0 != "#" }.lowercased()
        return mediaExtensions.contains { path.hasSuffix($0.description) }
    }
}
