import FoundationEssentials
import JSON
import TextTrimming

/// The text fields. Each rule lists its sources best first: Open Graph,
/// Twitter cards, plain HTML, then JSON-LD and microdata; an empty value
/// falls through to the next source.
extension MetadataRules {
    /// The title, without the site's name when the page attached it
    /// ("Article | Site", see `+TitleAffix`); `rawTitle` keeps it whole.
    /// Only a part shown to be the site's name goes (declared, the host's,
    /// or shared by the page's other titles): a kicker that the headline
    /// merely lacks ("Opinion | …", "Funding Snapshot: …") stays.
    ///
    /// `split` is the affix found in the title as written (nil for none),
    /// which `siteName` reuses when `<title>` is that same text.
    static func title(in page: PageIndex) -> (title: Picked<String>, raw: String?, split: TitleAffix?)? {
        guard let picked = declaredTitle(in: page) else { return nil }
        guard ["title", "og:title", "twitter:title"].contains(picked.source) else { return (picked, nil, nil) }
        let affix = titleAffix(of: picked.value, in: page)
        guard let affix, affix.evidence == .siteName else { return (picked, nil, affix) }
        return (Picked(value: affix.rest, source: picked.source), picked.value, affix)
    }

    static func declaredTitle(in page: PageIndex) -> Picked<String>? {
        if let picked = page.metaText(["og:title", "twitter:title"]) { return picked }
        if let text = page.titleText() { return Picked(value: text, source: "title") }
        if let picked = page.metaText(["title", "dc.title"]) { return picked }
        let nodes = page.jsonLD.contentNodes
        for key in ["headline", "name"] {
            if let text = JSONLDGraph.text(key, in: nodes) { return Picked(value: text, source: "json-ld:\(key)") }
        }
        return page.microdataText(["headline", "name"]) ?? headingTitle(in: page)
    }

    static func summary(in page: PageIndex) -> Picked<String>? {
        if let picked = page.metaText(["og:description", "twitter:description", "description", "dc.description"]) {
            return picked
        }
        if let text = JSONLDGraph.text("description", in: page.jsonLD.contentNodes) {
            return Picked(value: text, source: "json-ld:description")
        }
        return page.microdataText(["description"]) ?? firstParagraph(in: page)
    }

    /// The site's own name. Never invented from the host: a label the page
    /// does not give is the client's to derive.
    ///
    /// - Parameter knownSplit: the title text `title(in:)` already looked
    ///   for an affix, with what it found, so the same text is not searched twice.
    static func siteName(in page: PageIndex, knownSplit: (text: String, affix: TitleAffix?)? = nil) -> Picked<String>? {
        if let picked = page.metaText(["og:site_name", "application-name", "apple-mobile-web-app-title"]) {
            return picked
        }
        // Who publishes the page, the way Dublin Core and plain `<meta
        // name=publisher>` say it: the site's organisation, so its name.
        if let picked = page.metaText(["publisher", "dc.publisher", "dcterms.publisher"]) { return picked }
        for node in page.jsonLD.contentNodes {
            if let name = page.jsonLD.names(node["publisher"]).first {
                return Picked(value: name, source: "json-ld:publisher.name")
            }
        }
        if let name = JSONLDGraph.text("name", in: page.jsonLD.nodes(ofType: ["website"])) {
            return Picked(value: name, source: "json-ld:WebSite.name")
        }
        if let picked = page.microdataText(["publisher"]) { return picked }
        // The name of the site's own app is its name too, when nothing else says so.
        if let picked = page.metaText(["twitter:app:name:iphone", "twitter:app:name:ipad", "twitter:app:name:googleplay",
                                       "al:ios:app_name", "al:android:app_name"]) {
            return picked
        }
        return titleAffixSiteName(in: page, knownSplit: knownSplit)
    }

    /// The author's name. Open Graph's `article:author` is often a profile
    /// URL; such values are skipped. A leading "By " of a byline is dropped.
    /// JSON-LD authors may be an array and `@id` references; several are
    /// joined as a byline writes them. Values that name no author (a URL,
    /// "Admin", a date) fall through to the next source. The site's own name
    /// is refused only from what the body shows and from handles: a declared
    /// author may be an organisation (schema.org allows it), but a byline or
    /// handle that is the site's name is its logo or account.
    /// Twitter's `creator` is a handle, not a name: the last resort.
    static func author(in page: PageIndex) -> Picked<String>? {
        let siteNames = declaredSiteNames(in: page)
        let plausible = { (name: String) in isPlausibleAuthor(name, siteNames: []) }
        let shown = { (name: String) in isPlausibleAuthor(name, siteNames: siteNames) }
        for key in ["article:author", "author", "dc.creator", "parsely-author", "sailthru.author"] {
            for meta in page.metaValues(key) {
                if let name = authorName(meta.content), plausible(name) { return Picked(value: name, source: key) }
            }
        }
        for key in ["author", "creator"] {
            for node in page.jsonLD.contentNodes {
                let names = page.jsonLD.names(node[key]).compactMap(authorName).filter(plausible)
                if let joined = joinedAuthors(names) { return Picked(value: joined, source: "json-ld:\(key)") }
            }
        }
        if let name = page.bestPlacedProperty(named: "author", { authorName($0.value).flatMap { plausible($0) ? $0 : nil } }) {
            return Picked(value: name, source: "microdata:author")
        }
        if let picked = bylineAuthor(in: page), shown(picked.value) { return picked }
        return twitterCreator(in: page).flatMap { shown($0.value) ? $0 : nil }
    }

    /// A person's name from a byline: cleaned, without a leading "By",
    /// nil for URLs.
    static func authorName(_ raw: String?) -> String? {
        guard var text = TextCleaner.clean(raw), !looksLikeURL(text) else { return nil }
        if text.lowercased().hasPrefix("by "), text.count > 3 {
            text = String(text.dropFirst(3)).trimmedSpaces
        }
        return text.isEmpty ? nil : text
    }

    /// The page's own date string (ISO 8601 as written), trimmed. A value
    /// without a four-digit year ("8:38 pm") is not a date and falls through.
    package static let publishedTimeKeys = [
        "article:published_time", "og:article:published_time", "og:published_time",
        "published_time", "datepublished", "date", "dc.date", "dc.date.issued", "dcterms.date",
        "dcterms.issued", "dcterms.created", "article.published", "publish-date", "pubdate",
        "parsely-pub-date", "sailthru.date",
    ]

    static func publishedTime(in page: PageIndex) -> Picked<String>? {
        for key in publishedTimeKeys {
            for meta in page.metaValues(key) {
                if let date = dateText(meta.content) { return Picked(value: date, source: key) }
            }
        }
        for key in ["datePublished", "uploadDate", "dateCreated"] {
            for node in page.jsonLD.contentNodes {
                if let date = dateText(node[key]?.stringValue) { return Picked(value: date, source: "json-ld:\(key)") }
            }
        }
        if let date = page.bestPlacedProperty(named: "datepublished", { dateText($0.value) }) {
            return Picked(value: date, source: "microdata:datepublished")
        }
        return shownDate(in: page)
    }

    /// A date: ISO 8601 with the page's offset when its form is known
    /// (`+Dates`), else as written when it holds a four-digit year.
    static func dateText(_ raw: String?) -> String? {
        guard let text = TextCleaner.clean(raw), hasYear(text) else { return nil }
        return isoDate(text) ?? text
    }

    static func hasYear(_ text: String) -> Bool {
        var digitRun = 0
        for character in text {
            digitRun = character.isASCIIDigit ? digitRun + 1 : 0
            if digitRun == 4 { return true }
        }
        return false
    }

    /// The page's declared canonical address, or nil: `canonicalURL` says
    /// what the page declares, and `url` already says where it was found.
    static func canonicalURL(in page: PageIndex) -> Picked<String>? {
        for meta in page.metaValues("og:url") {
            if let url = page.resolver.resolveWeb(meta.content) { return Picked(value: url, source: "og:url") }
        }
        for link in page.links where link.rels.contains("canonical") {
            if let url = page.resolver.resolveWeb(link.element["href"]) { return Picked(value: url, source: "link:canonical") }
        }
        for meta in page.metaValues("twitter:url") {
            if let url = page.resolver.resolveWeb(meta.content) { return Picked(value: url, source: "twitter:url") }
        }
        return nil
    }

    /// `<html lang>`, else `og:locale` as a BCP 47 tag, else the
    /// Content-Language header (or its `http-equiv` stand-in), else JSON-LD,
    /// else microdata.
    static func lang(in page: PageIndex, contentLanguage: String?) -> Picked<String>? {
        // BCP 47 separates subtags with "-"; pages write "en_US" too.
        if let lang = TextCleaner.clean(page.htmlLang) {
            return Picked(value: lang.replacing("_", with: "-"), source: "html:lang")
        }
        if let locale = page.metaRaw(["og:locale"]) {
            return Picked(value: locale.value.replacing("_", with: "-"), source: "og:locale")
        }
        if let header = contentLanguage.flatMap(firstLanguage) {
            return Picked(value: header, source: "Content-Language")
        }
        if let meta = page.metaRaw(["http-equiv:content-language"]), let first = firstLanguage(meta.value) {
            return Picked(value: first, source: "meta:content-language")
        }
        if let text = JSONLDGraph.text("inLanguage", in: page.jsonLD.contentNodes) {
            return Picked(value: text, source: "json-ld:inLanguage")
        }
        if let picked = page.microdataText(["inlanguage"]) {
            return Picked(value: picked.value.replacing("_", with: "-"), source: picked.source)
        }
        return nil
    }

    /// The first tag of a Content-Language list ("en-US, fr" → "en-US").
    private static func firstLanguage(_ value: String) -> String? {
        value.split(separator: ",").first.flatMap { TextCleaner.clean(String($0)) }
    }

    package static func looksLikeURL(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("//") || lower.hasPrefix("www.")
    }
}
