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
        guard let affix, affix.isCut else { return (picked, nil, affix) }
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

    /// A declared description longer than this (characters) is an
    /// article pasted whole, not a summary: a shorter JSON-LD one wins; else
    /// a plain `meta description` ends at a sentence within
    /// `maximumSummaryLength`, and an `og:` or `twitter:description`,
    /// written for cards, stays as written.
    static let longDescriptionLength = 500

    static func summary(in page: PageIndex) -> Picked<String>? {
        if let shorter = shorterThanLongCard(in: page) { return shorter }
        if let picked = page.metaText(["og:description", "twitter:description", "description", "dc.description"]) {
            guard ASCIIText.hasCharacters(picked.value, atLeast: longDescriptionLength + 1),
                  ["description", "dc.description"].contains(picked.source)
            else { return picked }
            if let text = JSONLDGraph.text("description", in: page.jsonLD.contentNodes), text.count <= longDescriptionLength {
                return Picked(value: text, source: "json-ld:description")
            }
            return Picked(value: summaryPrefix(picked.value), source: picked.source)
        }
        if let text = JSONLDGraph.text("description", in: page.jsonLD.contentNodes) {
            return Picked(value: text, source: "json-ld:description")
        }
        return page.microdataText(["description"]) ?? firstParagraph(in: page)
    }

    /// JSON-LD's `description`, else another declared one (`twitter:`,
    /// `description`), when the card description that would win (`og:`,
    /// `twitter:`) is longer than `longDescriptionLength` and it is not:
    /// the whole article pasted into the card's tag.
    static func shorterThanLongCard(in page: PageIndex) -> Picked<String>? {
        guard let card = page.metaText(["og:description", "twitter:description"]),
              card.value.utf8.count > longDescriptionLength, card.value.count > longDescriptionLength else { return nil }
        if let text = JSONLDGraph.text("description", in: page.jsonLD.contentNodes), text.count <= longDescriptionLength {
            return Picked(value: text, source: "json-ld:description")
        }
        for key in ["twitter:description", "description", "dc.description"] where key != card.source {
            if let other = page.metaText([key]), other.value.count <= longDescriptionLength { return other }
        }
        return nil
    }

    /// The site's own name. Never invented from the host: a label the page
    /// does not give is the client's to derive.
    ///
    /// - Parameter knownSplit: the title text `title(in:)` already looked
    ///   for an affix, with what it found, so the same text is not searched twice.
    static func siteName(in page: PageIndex, knownSplit: (text: String, affix: TitleAffix?)? = nil) -> Picked<String>? {
        if let picked = page.metaText(["og:site_name", "application-name", "apple-mobile-web-app-title"]) {
            return withoutSlogan(picked, in: page)
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

    /// A declared site name with a slogan after it ("Acme - the daily
    /// paper") as the name alone, when the page names its site so elsewhere
    /// (JSON-LD publisher or WebSite, `application-name`, the host): the
    /// slogan is no part of the name. Without such a name it stays whole.
    static func withoutSlogan(_ picked: Picked<String>, in page: PageIndex) -> Picked<String> {
        guard let split = titleSplits(picked.value).first(where: { !$0.isSuffix }) else { return picked }
        let folded = foldedName(split.site)
        let others = siteNameCandidates(in: page).filter { $0 != picked.value }.map(foldedName)
            + registrableNames(page.resolver.base?.host)
        guard !folded.isEmpty, others.contains(folded) else { return picked }
        return Picked(value: split.site, source: picked.source)
    }

    /// The authors' names. Open Graph's `article:author` is often a profile
    /// URL; such values are skipped (and kept as `authorURL`), as are slugs
    /// ("ann-lee") and handles. Each value is read as a credit line
    /// (`authorNames`): prefixes in the corpus's languages, dates, reading
    /// times and job titles go, and every person it names is kept. JSON-LD
    /// authors may be an array and `@id` references. Values that name no
    /// author (a URL, "Admin", a date) fall through to the next source. The
    /// site's own name is refused only from what the body shows and from
    /// handles: a declared author may be an organisation (schema.org allows
    /// it), but a byline or handle that is the site's name is its logo or
    /// account. A declared credit that names no person — the site's name or
    /// a desk ("Staff", "News Desk") — loses to a visible byline that names
    /// one: the page shows its readers who wrote it. Twitter's `creator` is
    /// a handle, not a name: the last resort.
    static func authors(in page: PageIndex) -> Picked<[String]>? {
        let siteNames = declaredSiteNames(in: page)
        let plausible = { (name: String) in isPlausibleAuthor(name, siteNames: []) && !isSlug(name) }
        let shown = { (name: String) in isPlausibleAuthor(name, siteNames: siteNames) }
        var declared: Picked<[String]>?
        metas: for key in ["article:author", "author", "dc.creator", "byl", "parsely-author", "sailthru.author"] {
            var names: [String] = []
            for meta in page.metaValues(key) {
                for name in withoutSiteCredit(authorNames(meta.content), siteNames: siteNames) where plausible(name) && !names.contains(name) {
                    names.append(name)
                }
            }
            if !names.isEmpty {
                declared = Picked(value: names, source: key)
                break metas
            }
        }
        // A login ("jdoe") gives way to a display name from another source.
        var login: Picked<[String]>?
        if let names = declared?.value, names.allSatisfy(isLoginName) { (login, declared) = (declared, nil) }
        if declared == nil, let credit = parselyPage(in: page, key: "author") {
            let names = authorNames(credit).filter(plausible)
            if !names.isEmpty { declared = Picked(value: names, source: "parsely-page") }
        }
        // Set when JSON-LD credits organisations only (`jsonLDCredits`).
        var organisation = false
        if declared == nil {
            jsonLD: for key in ["author", "creator"] {
                for node in page.jsonLD.contentNodes {
                    var names: [String] = []
                    let credits = jsonLDCredits(node[key], in: page.jsonLD)
                    for name in credits.names.flatMap(authorNames) where plausible(name) && !names.contains(name) {
                        names.append(name)
                    }
                    if !names.isEmpty {
                        declared = Picked(value: names, source: "json-ld:\(key)")
                        organisation = credits.organisationsOnly
                        break jsonLD
                    }
                }
            }
        }
        if declared == nil {
            var names: [String] = []
            for name in page.bestPlacedProperties(named: "author", between: personProperties, { property -> [String]? in
                // The person's own `itemprop=name`, not the whole item's text or its link.
                let names = authorNames(page.nestedName(in: property, between: personProperties) ?? property.value).filter(plausible)
                return names.isEmpty ? nil : names
            }).joined() where !names.contains(name) {
                names.append(name)
            }
            if !names.isEmpty { declared = Picked(value: names, source: "microdata:author") }
        }
        if let declared, !organisation, !declared.value.allSatisfy({ isGenericCredit($0, siteNames: siteNames) }) { return declared }
        if let picked = bylineAuthors(in: page) {
            let names = picked.value.filter(shown)
            // A byline that shows the organisation JSON-LD credits confirms it.
            if organisation, let declared, names == declared.value { return declared }
            if !names.isEmpty, declared == nil || !names.allSatisfy({ isGenericCredit($0, siteNames: siteNames) }) {
                return Picked(value: names, source: picked.source)
            }
        }
        if let declared = declared ?? login { return declared }
        return twitterCreator(in: page).flatMap { shown($0.value) ? Picked(value: [$0.value], source: $0.source) : nil }
    }

    /// A profile URL the page declares for its author (`article:author`,
    /// JSON-LD `author.url`), for `authorURL`.
    static func authorURL(in page: PageIndex) -> Picked<String>? {
        for meta in page.metaValues("article:author") {
            let value = meta.content.trimmedWhitespace
            guard looksLikeURL(value) else { continue }
            // "www.example.com/ann" names a host, not a path on this page's.
            let absolute = value.lowercased().hasPrefix("www.") ? "https://" + value : value
            if let url = page.resolver.resolveWeb(absolute) { return Picked(value: url, source: "article:author") }
        }
        for node in page.jsonLD.contentNodes {
            for url in page.jsonLD.urls(node["author"]) where looksLikeURL(url) {
                if let resolved = page.resolver.resolveWeb(url) { return Picked(value: resolved, source: "json-ld:author.url") }
            }
        }
        return nil
    }

    /// A `Person`'s own microdata properties: what may sit between two
    /// `itemprop=author` items of one byline.
    static let personProperties: Set<String> = [
        "name", "givenname", "familyname", "url", "image", "sameas", "jobtitle", "email", "description",
    ]

    /// An account's login rather than a name: one word of small ASCII
    /// letters and digits ("jdoe", "ann42").
    static func isLoginName(_ name: String) -> Bool {
        name.utf8.count >= 2 && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// A URL slug rather than a name: "ann-lee", "ann_lee" (lowercase, no spaces).
    static func isSlug(_ name: String) -> Bool {
        !name.contains(" ") && (name.contains("-") || name.contains("_") || name.hasPrefix("/"))
            && name.allSatisfy { $0.isLowercase || $0.isASCIIDigit || "-_/@.".contains($0) }
    }

    /// A person's name from a byline: cleaned, without a leading "By",
    /// nil for URLs. The first name of a credit line (`authorNames`).
    static func authorName(_ raw: String?) -> String? {
        authorNames(raw).first
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
        let dayFirst = writesDayFirst(page)
        for key in publishedTimeKeys {
            for meta in page.metaValues(key) {
                if let date = dateText(meta.content, dayFirst: dayFirst) { return corroboratedEarlier(than: Picked(value: date, source: key), in: page) }
            }
        }
        if let date = parselyPage(in: page, key: "pub_date").flatMap({ dateText($0, dayFirst: dayFirst) }) {
            return Picked(value: date, source: "parsely-page")
        }
        for key in ["datePublished", "uploadDate", "dateCreated"] {
            for node in page.jsonLD.contentNodes {
                if let date = dateText(node[key]?.stringValue, dayFirst: dayFirst) { return Picked(value: date, source: "json-ld:\(key)") }
            }
        }
        if let date = page.bestPlacedProperty(named: "datepublished", { dateText($0.value, dayFirst: dayFirst) }) {
            return Picked(value: date, source: "microdata:datepublished")
        }
        return shownDate(in: page)
    }

    /// A meta date that is later than JSON-LD's `datePublished`, when the
    /// date the page shows agrees with JSON-LD's day, gives way to it:
    /// templates that write the last change into the published tag are
    /// outvoted by the two sources that agree.
    static func corroboratedEarlier(than picked: Picked<String>, in page: PageIndex) -> Picked<String> {
        let day = { (date: String) -> String? in
            let prefix = String(date.prefix(10))
            return prefix.count == 10 && isoDate(prefix) == prefix ? prefix : nil
        }
        guard let metaDay = day(picked.value),
              let declared = page.jsonLD.contentNodes.lazy.compactMap({ dateText($0["datePublished"]?.stringValue) }).first,
              let declaredDay = day(declared), declaredDay < metaDay,
              let shown = shownDate(in: page), day(shown.value) == declaredDay else { return picked }
        return Picked(value: declared, source: "json-ld:datePublished")
    }

    /// A text field of Parse.ly's `<meta name="parsely-page" content="{…}">`
    /// (`pub_date`, `author`), a JSON object in an attribute.
    static func parselyPage(in page: PageIndex, key: String) -> String? {
        for meta in page.metaValues("parsely-page") {
            if case .object(let object)? = JSONLDGraph.parse(meta.content), let text = object[key]?.stringValue { return text }
        }
        return nil
    }

    /// A date: ISO 8601 with the page's offset when its form is known
    /// (`+Dates`), else as written when it holds a four-digit year.
    static func dateText(_ raw: String?, dayFirst: Bool = false) -> String? {
        guard let text = TextCleaner.clean(raw), hasYear(text) else { return nil }
        // A label or a relative time around the date ("Published 3 hours ago · March 9, 2021"): the date in it.
        return isoDate(text, dayFirst: dayFirst) ?? dateInText(text, dayFirst: dayFirst) ?? text
    }

    static func hasYear(_ text: String) -> Bool {
        // Four digit characters in a row are four digit bytes in a row; in
        // ASCII text the bytes are the characters (no digit joins another).
        if let decided = ASCIIText.hasDigitRun(text, of: 4) { return decided }
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
