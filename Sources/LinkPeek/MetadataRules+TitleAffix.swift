import FoundationEssentials
import HTMLHead
import TextTrimming

/// The site name a page writes into its `<title>`: "Article | Site" or
/// "Site - Article". Which end is the site is never guessed: the other part
/// must be the page's own headline, or the end must begin the title of the
/// site's feed (`<link rel=alternate type=application/rss+xml title="Site
/// » Feed">`, how blogs name their feeds).
extension MetadataRules {
    /// Separators between a page title and a site name, as sites write them.
    static let titleSeparators = [" | ", " - ", " – ", " — ", " · ", " :: ", " » "]

    static func titleAffixSiteName(in page: PageIndex) -> Picked<String>? {
        guard let title = page.titleText(), let separator = titleSeparators.first(where: { title.contains($0) }) else {
            return nil
        }
        let parts = title.split(separator: separator, omittingEmptySubsequences: false).map(\.trimmedSpaces)
        guard parts.count >= 2, let first = parts.first, let last = parts.last, !first.isEmpty, !last.isEmpty else {
            return nil
        }
        let withoutLast = parts.dropLast().joined(separator: separator)
        let withoutFirst = parts.dropFirst().joined(separator: separator)
        let headlines = pageHeadlines(in: page).map { $0.lowercased() }
        if headlines.contains(withoutLast.lowercased()) { return Picked(value: last, source: "title suffix") }
        if headlines.contains(withoutFirst.lowercased()) { return Picked(value: first, source: "title prefix") }
        let feeds = feedTitles(in: page).map { $0.lowercased() }
        if feeds.contains(where: { $0.hasPrefix(last.lowercased()) }) { return Picked(value: last, source: "title suffix") }
        if feeds.contains(where: { $0.hasPrefix(first.lowercased()) }) { return Picked(value: first, source: "title prefix") }
        return nil
    }

    /// What the page says its headline is, apart from `<title>`.
    private static func pageHeadlines(in page: PageIndex) -> [String] {
        var headlines = ["og:title", "twitter:title"].compactMap { page.metaText([$0])?.value }
        if let headline = JSONLDGraph.text("headline", in: page.jsonLD.contentNodes) { headlines.append(headline) }
        if let heading = headingTitle(in: page) { headlines.append(heading.value) }
        return headlines
    }

    /// Titles of the RSS and Atom feeds the page links to.
    private static func feedTitles(in page: PageIndex) -> [String] {
        page.links.compactMap { link in
            guard link.rels.contains("alternate"),
                  let type = link.element["type"]?.lowercased(), type.contains("rss") || type.contains("atom") else { return nil }
            return TextCleaner.clean(link.element["title"])
        }
    }
}
