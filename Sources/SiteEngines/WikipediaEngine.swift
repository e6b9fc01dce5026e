import JSON
import Metadata

/// Wikipedia's REST `page/summary` for articles in any language
/// (`LANG.wikipedia.org/wiki/TITLE`, the mobile `LANG.m.wikipedia.org` too).
public struct WikipediaEngine: SiteEngine {
    public let name = "wikipedia"
    public let shapes = ["LANG.wikipedia.org/wiki/TITLE", "LANG.m.wikipedia.org/wiki/TITLE"]

    public init() {}

    public func request(for url: SiteURL) -> SiteRequest? {
        guard url.host.hasSuffix(".wikipedia.org") else { return nil }
        var labels = url.host.split(separator: ".").dropLast(2)
        if labels.last == "m" { labels = labels.dropLast() }
        guard labels.count == 1, let language = labels.first, SiteURL.isName(String(language)),
            url.segments.count == 2, url.segments[0] == "wiki", SiteURL.isPathSafe(url.segments[1]),
            !url.segments[1].contains(":")  // Special:, Talk:, File: pages have no summary worth the call.
        else { return nil }
        let host = "\(language).wikipedia.org"
        var request = SiteRequest(
            engine: name, url: "https://\(host)/api/rest_v1/page/summary/\(url.segments[1])", kind: "article")
        request.headers = ["Accept: application/json"]
        request.parts = ["language": String(language)]
        return request
    }

    public func read(_ answer: JSONValue, for request: SiteRequest, pageURL: String) -> SiteReading? {
        guard let title = answer["titles"]?["normalized"]?.text ?? answer["title"]?.text,
            let extract = answer["extract"]?.text
        else { return nil }
        var metadata = LinkMetadata(originalURL: pageURL)
        metadata.url = pageURL
        metadata.siteName = "Wikipedia"
        metadata.title = title
        metadata.summary = SiteText.summary(extract)
        metadata.lang = answer["lang"]?.text ?? request.parts["language"]
        if let source = answer["thumbnail"]?["source"]?.text, source.hasPrefix("https://") {
            metadata.image = MediaResource(
                url: source, width: answer["thumbnail"]?["width"]?.wholeNumber,
                height: answer["thumbnail"]?["height"]?.wholeNumber)
        }
        var site = SiteInfo(engine: name, kind: answer["type"]?.text == "disambiguation" ? "disambiguation" : "article")
        site.language = metadata.lang
        site.createdAt = answer["timestamp"]?.text
        site.description = answer["description"]?.text
        metadata.site = site
        return SiteReading(metadata: metadata)
    }
}
