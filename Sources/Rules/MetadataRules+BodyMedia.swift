import FoundationEssentials
import HTMLHead
import Metadata
import TextTrimming

/// Video and audio the page plays without declaring them: `<video>` and
/// `<audio>` players (their `src` and `<source>` children) and links to
/// media files. The rules use them only when no declared source exists.
extension MetadataRules {
    /// Audio or video, as the body shows it.
    enum BodyMediaKind {
        case audio, video

        var elementName: String {
            switch self {
            case .audio: "audio"
            case .video: "video"
            }
        }
    }

    /// Media from the body's players and links, best first: players that
    /// are not decoration, then decorative ones (muted, looping or
    /// autoplaying background clips), then links to files of that kind.
    static func bodyMediaCandidates(_ kind: BodyMediaKind, in page: PageIndex) -> [MediaCandidate] {
        var players: [MediaCandidate] = []
        var decorative: [MediaCandidate] = []
        var links: [MediaCandidate] = []
        // The player a `<source>` belongs to: the scanner keeps sources only
        // inside a recorded player, so it is the last player before it.
        var currentPlayer: HTMLElement?
        for (element, order) in page.fallbacks {
            switch element.name {
            case "video", "audio":
                currentPlayer = element
                guard element.name == kind.elementName else { continue }
                let candidates = bodyMedia(element["src"], type: element["type"], source: "\(kind.elementName) element",
                                           order: order, resolver: page.resolver)
                if isDecorative(element) { decorative += candidates } else { players += candidates }
            case "source":
                guard let player = currentPlayer, player.name == kind.elementName else { continue }
                let candidates = bodyMedia(element["src"], type: element["type"], source: "\(kind.elementName) element",
                                           order: order, resolver: page.resolver)
                if isDecorative(player) { decorative += candidates } else { players += candidates }
            case "a":
                guard let href = element["href"], mediaFileKind(href) == kind else { continue }
                links += bodyMedia(href, type: nil, source: "\(kind.elementName) link", order: order, resolver: page.resolver)
            default:
                continue
            }
        }
        return players + decorative + links
    }

    /// The `poster` of the first non-decorative `<video>`, else of any: the
    /// frame the page itself shows for its video.
    static func videoPoster(in page: PageIndex) -> MediaCandidate? {
        let videos = page.fallbacks.filter { $0.element.name == "video" && $0.element["poster"] != nil }
        guard let (element, order) = videos.first(where: { !isDecorative($0.element) }) ?? videos.first,
              let url = page.resolver.resolveWeb(element["poster"]) else { return nil }
        let resource = MediaResource(url: url, width: pixels(element["width"]), height: pixels(element["height"]))
        return MediaCandidate(resource: resource, source: "video poster", order: order)
    }

    /// Muted, looping or autoplaying players are backgrounds and animations
    /// more often than the page's subject.
    static func isDecorative(_ player: HTMLElement) -> Bool {
        ["muted", "loop", "autoplay"].contains { player[$0] != nil }
    }

    /// Audio or video by a URL's file extension (the path only), or nil.
    static func mediaFileKind(_ href: String) -> BodyMediaKind? {
        let path = href.prefix { $0 != "?" && $0 != "#" }.lowercased()
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        let fileExtension = String(path[path.index(after: dot)...])
        if audioFileExtensions.contains(fileExtension) { return .audio }
        if videoFileExtensions.contains(fileExtension) { return .video }
        return nil
    }

    /// One web candidate (data URLs of whole media files are not previews).
    private static func bodyMedia(_ href: String?, type: String?, source: String, order: Int,
                                  resolver: URLResolver) -> [MediaCandidate] {
        guard let url = resolver.resolveWeb(href) else { return [] }
        let essence = type?.split(separator: ";").first.map { $0.trimmedSpaces.lowercased() }
        let resource = MediaResource(url: url, type: essence.flatMap { $0.isEmpty ? nil : $0 })
        return [MediaCandidate(resource: resource, source: source, order: order)]
    }
}
