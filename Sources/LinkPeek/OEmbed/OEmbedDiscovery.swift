import HTMLHead
import TextTrimming

/// oEmbed discovery (oembed.com §4): a page names its JSON endpoint in its
/// head, `<link rel="alternate" type="application/json+oembed" href>`
/// (Flickr writes `rel="alternative"`), or in an HTTP `Link` header with
/// the same `rel` and `type`. Only JSON is used; XML endpoints are ignored.
public enum OEmbedDiscovery {
    /// The media type of a JSON oEmbed endpoint.
    static let jsonType = "application/json+oembed"

    /// The first JSON endpoint a page names: the `Link` header first (it
    /// arrives before the page), then the head's links. Relative hrefs
    /// resolve against `<base href>`, then the page URL; only http and
    /// https URLs are kept.
    public static func endpoint(in document: HeadDocument?, linkHeader: String?, pageURL: String) -> String? {
        let resolver = URLResolver(pageURL: pageURL, baseHref: document.flatMap(baseHref))
        if let linkHeader, let href = fromLinkHeader(linkHeader), let url = resolver.resolveWeb(href) {
            return url
        }
        guard let document else { return nil }
        for element in document.elements where element.name == "link" && !element.isFallback {
            guard isOEmbedLink(rel: element["rel"], type: element["type"]) else { continue }
            if let url = resolver.resolveWeb(element["href"]) { return url }
        }
        return nil
    }

    private static func baseHref(_ document: HeadDocument) -> String? {
        document.elements.first { $0.name == "base" && !$0.inBody }?["href"]
    }

    /// Whether a link's `rel` has `alternate` (or `alternative`) and its type is JSON oEmbed.
    static func isOEmbedLink(rel: String?, type: String?) -> Bool {
        guard let rel, let type, type.trimmedWhitespace.lowercased() == jsonType else { return false }
        return rel.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })
            .contains { $0 == "alternate" || $0 == "alternative" }
    }

    /// The first JSON oEmbed target of a `Link` field (RFC 8288):
    /// `<uri>; rel="alternate"; type="application/json+oembed", <…>; …`.
    /// Several `Link` fields arrive joined by commas, which this reads the same.
    static func fromLinkHeader(_ field: String) -> String? {
        var rest = Substring(field)
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { return nil }
            let target = rest[rest.index(after: open)..<close]
            // Parameters run to the next link value: a comma outside quotes.
            var parameters = Substring("")
            var index = rest.index(after: close)
            var quoted = false
            while index < rest.endIndex {
                let character = rest[index]
                if character == "\"" { quoted.toggle() }
                if character == ",", !quoted { break }
                index = rest.index(after: index)
            }
            parameters = rest[rest.index(after: close)..<index]
            var rel: String?, type: String?
            for parameter in parameters.split(separator: ";") {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                let name = pair[0].trimmedWhitespace.lowercased()
                let value = pair[1].trimmedWhitespace.trimmingScalars { $0 == "\"" }
                if name == "rel", rel == nil { rel = value }
                if name == "type", type == nil { type = value }
            }
            if isOEmbedLink(rel: rel, type: type) { return String(target).trimmedWhitespace }
            rest = rest[index...]
        }
        return nil
    }
}
