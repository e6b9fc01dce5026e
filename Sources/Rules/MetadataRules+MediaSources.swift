import FoundationEssentials
import JSON
import Metadata
import TextTrimming

extension MetadataRules {
    /// Image candidates, best source first: Open Graph, Twitter cards,
    /// `<link rel=image_src>`, JSON-LD, microdata.
    static func imageCandidates(in page: PageIndex) -> [MediaCandidate] {
        var candidates = structuredMedia(prefix: "og:image", in: page)
        candidates += structuredMedia(prefix: "twitter:image", in: page)
        for link in page.links where link.rels.contains("image_src") {
            candidates += plainMedia([link.element["href"]].compactMap { $0 }, source: "link:image_src",
                                     order: link.order, resolver: page.resolver)
        }
        // JSON-LD has no document positions of its own; it sorts after the
        // page's tags in the page-order list.
        let jsonOrder = MediaCandidate.afterThePage
        for key in ["image", "thumbnailUrl"] {
            for node in page.jsonLD.contentNodes {
                candidates += plainMedia(page.jsonLD.urls(node[key]), source: "json-ld:\(key)",
                                         order: jsonOrder, resolver: page.resolver)
            }
        }
        for name in ["image", "thumbnailurl"] {
            for property in page.properties(named: name) {
                candidates += plainMedia([property.value], source: "microdata:\(name)",
                                         order: property.order, resolver: page.resolver)
            }
        }
        return candidates
    }

    /// Video candidates in source order. The choice prefers a directly
    /// playable file over a player page or Flash (LinkPresentation plays
    /// only files inline), then source order.
    static func videoCandidates(in page: PageIndex) -> [MediaCandidate] {
        var candidates = structuredMedia(prefix: "og:video", in: page)
        candidates += structuredMedia(prefix: "twitter:player:stream", in: page).map { stream in
            // A Twitter stream is a file by definition, whatever its extension.
            var stream = stream
            if stream.resource.type == nil { stream.resource.type = "video/mp4" }
            return stream
        }
        let jsonOrder = MediaCandidate.afterThePage
        for node in page.jsonLD.nodes(ofType: ["videoobject"]) {
            let type = node["encodingFormat"]?.stringValue.flatMap { $0.contains("/") ? $0.lowercased() : nil }
            candidates += plainMedia(page.jsonLD.urls(node["contentUrl"]), source: "json-ld:VideoObject.contentUrl",
                                     order: jsonOrder, type: type, resolver: page.resolver)
        }
        candidates += structuredMedia(prefix: "twitter:player", in: page).map { player in
            var player = player
            player.resource.type = player.resource.type ?? "text/html"
            return player
        }
        for node in page.jsonLD.nodes(ofType: ["videoobject"]) {
            candidates += plainMedia(page.jsonLD.urls(node["embedUrl"]), source: "json-ld:VideoObject.embedUrl",
                                     order: jsonOrder, type: "text/html", resolver: page.resolver)
        }
        return candidates.filter { !$0.isData }
    }

    /// Audio candidates: Open Graph, then JSON-LD audio objects.
    static func audioCandidates(in page: PageIndex) -> [MediaCandidate] {
        var candidates = structuredMedia(prefix: "og:audio", in: page)
        let jsonOrder = MediaCandidate.afterThePage
        for node in page.jsonLD.nodes(ofType: ["audioobject"]) {
            candidates += plainMedia(page.jsonLD.urls(node["contentUrl"]), source: "json-ld:AudioObject.contentUrl",
                                     order: jsonOrder, resolver: page.resolver)
        }
        for node in page.jsonLD.contentNodes {
            for media in [node["audio"], node["associatedMedia"]] {
                candidates += plainMedia(jsonLDAudioURLs(media, in: page.jsonLD), source: "json-ld:audio",
                                         order: jsonOrder, resolver: page.resolver)
            }
        }
        return candidates.filter { !$0.isData }
    }

    /// URLs of JSON-LD audio as `JSONLDGraph.urls` reads them; besides, a
    /// bare reference whose `@id` no node of the graph defines and that is
    /// a web address of an audio file by its extension
    /// (`"audio": [{"@id": "https://cdn.example/ep1.mp3?src=feed"}]`): the
    /// identifier is the file itself.
    static func jsonLDAudioURLs(_ value: JSONValue?, in graph: JSONLDGraph) -> [String] {
        let found = graph.urls(value)
        guard found.isEmpty else { return found }
        let items: [JSONValue] = value?.arrayValue ?? (value.map { [$0] } ?? [])
        return items.compactMap { item in
            guard let node = item.objectValue, let id = node["@id"]?.stringValue,
                  graph.dereference(node).count == node.count,
                  id.lowercased().hasPrefix("http"), mediaFileKind(id) == .audio else { return nil }
            return id
        }
    }

    /// Whether a player can play the video directly: a `video/*` or HLS
    /// type, or, with no type, a file extension that says so. Player pages
    /// (`text/html`) and Flash are not playable.
    static func isDirectlyPlayable(_ resource: MediaResource) -> Bool {
        if let type = resource.type?.split(separator: ";").first?.trimmedSpaces, !type.isEmpty {
            return type.hasPrefix("video/") || type == "application/x-mpegurl" || type == "application/vnd.apple.mpegurl"
        }
        let path = URL(string: resource.url)?.path.lowercased() ?? ""
        return [".mp4", ".m4v", ".webm", ".mov", ".m3u8", ".ogv"].contains { path.hasSuffix($0) }
    }
}
