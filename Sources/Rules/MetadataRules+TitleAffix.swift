import FoundationEssentials
import HTMLHead
import TextTrimming

/// The site name a page writes into its titles: "Article | Site" or
/// "Site - Article". Which end is the site is never guessed: the part must
/// be the site's name as the page gives it elsewhere (`og:site_name`,
/// `application-name`, JSON-LD publisher or WebSite), its host's
/// registrable name ("The Verge" on theverge.com), the same affix on the
/// page's other titles, or the other part must be the page's own headline,
/// or the part must begin the title of the site's feed (`<link
/// rel=alternate type=application/rss+xml title="Site » Feed">`, how blogs
/// name their feeds). Real titles with " - " in them keep it: without such
/// evidence nothing is split.
///
/// A prefix ("Site: Article") needs evidence that names the site: a
/// title's first part is far more often a kicker or a topic ("Breaking:",
/// "C++ tips:", "Rust 1.80:") than the site's name, and a headline that
/// merely lacks it shows nothing about it. So a prefix goes when it is a
/// declared name or the host's, or the same affix on another title of a
/// page that declares no other name, or when the site's feed is named
/// after it; never on a separator alone, nor because the rest is the
/// page's headline (which suffixes may use).
extension MetadataRules {
    /// Separators between a page title and a site name, as sites write them
    /// (WordPress themes also use « and •, others ~, / and ›). Those that
    /// are not full-width need spaces around them ("Spider-Man", "10:30",
    /// "AC/DC" stay whole); the full-width ones are separators by themselves,
    /// and so is `_`, which prose never writes ("Headline_Brand").
    /// CJK titles also write "|" and "-" unspaced (`cjkTitleSeparators`).
    /// A separator alone never splits: the part must be shown to be the
    /// site's name (`titleAffix`).
    static let titleSeparators = [
        " | ", " - ", " – ", " — ", " · ", " :: ", " » ", " « ", " • ", " › ", " ~ ", " / ", " : ", ": ", " _ ",
        "｜", "：", "_",
    ]

    /// A title split into the site's name and the rest.
    struct TitleAffix {
        var site: String
        var rest: String
        /// True when the site came last ("Article | Site").
        var isSuffix: Bool
        /// What showed the part is the site's name.
        var evidence: Evidence
        /// The separator the title was cut at, as written (" | ", "：").
        var separator: String = ""

        enum Evidence {
            /// A name the page declares, the host, or the other titles' shared affix.
            case siteName
            /// The rest is the page's headline (suffixes only), or the part begins a feed title.
            case headline
            /// A parenthesised addition at the end ("(Published 2021)") that
            /// the page's headline lacks: boilerplate, and no site name.
            case addition
        }

        /// True when the title loses the part: a named site, a suffix beside
        /// the page's headline (after no colon: what follows one is a
        /// subtitle), or an addition.
        var isCut: Bool {
            switch evidence {
            case .siteName, .addition: true
            case .headline: isSuffix && !separator.contains(":")
            }
        }

        var source: String { isSuffix ? "title suffix" : "title prefix" }
    }

    /// The site-name affix of `title`, or nil when none can be shown to be
    /// one; with a named site goes the section beside it (`withoutSection`).
    static func titleAffix(of title: String, in page: PageIndex) -> TitleAffix? {
        guard let affix = shownAffix(of: title, in: page) else { return nil }
        return affix.evidence == .siteName ? withoutSection(affix, in: page) : affix
    }

    private static func shownAffix(of title: String, in page: PageIndex) -> TitleAffix? {
        let splits = titleSplits(title)
        guard !splits.isEmpty else {
            return title.hasSuffix(")") ? trailingAddition(of: title, headlines: pageHeadlines(in: page).map { $0.lowercased() }) : nil
        }
        // Each part folded once (`foldedName` walks Unicode scalars).
        let usable = splits.map { FoldedSplit($0) }.filter { !$0.site.isEmpty && !$0.rest.isEmpty }
        let candidates = siteNameCandidates(in: page)
        let declared = candidates.map(foldedName).filter { !$0.isEmpty }
        let names = Set(declared + registrableNames(page.resolver.base?.host))
        if let named = usable.first(where: { names.contains($0.site) }) { return named.split }
        // A suffix that is a longer or shorter form of a declared name
        // ("Acme News" beside "Acme", "Acme" beside "Acme - the daily
        // paper"), cut where the words of the original end. The names'
        // words are read once, for every suffix.
        let originalWords = usable.contains(where: \.split.isSuffix)
            ? candidates.compactMap { TextCleaner.clean($0) }.map(formWords) : []
        if let named = usable.first(where: { split in
            guard split.split.isSuffix else { return false }
            let partWords = formWords(split.split.site)
            return originalWords.contains { isLongerOrShorterForm(partWords, of: $0) }
        }) {
            return named.split
        }
        let headlines = pageHeadlines(in: page).map { $0.lowercased() }
        // A prefix that is a shorter form of a declared name ("Acme · Headline"
        // beside "Acme News") goes only when the rest is the page's headline:
        // a kicker may share a word with the site's name, not the whole rest.
        if let named = usable.first(where: { split in
            guard !split.split.isSuffix, headlines.contains(split.split.rest.lowercased()) else { return false }
            let partWords = formWords(split.split.site)
            return candidates.compactMap { TextCleaner.clean($0) }.map(formWords).contains {
                partWords.count < $0.count && isLongerOrShorterForm(partWords, of: $0)
            }
        }) {
            return named.split
        }
        let others = otherTitles(than: title, in: page).flatMap(titleSplits).map { FoldedSplit($0) }
        // A page that names its site otherwise has shown that a differing first part is not it.
        if let shared = usable.first(where: { ($0.split.isSuffix || declared.isEmpty) && sharesAffix($0, with: others) }) {
            return shared.split
        }
        let feeds = feedTitles(in: page).map { $0.lowercased() }
        for split in splits {
            // A feed's title is the site naming itself; a headline only shows what the rest is.
            if (split.isSuffix && headlines.contains(split.rest.lowercased()))
                || feeds.contains(where: { $0.hasPrefix(split.site.lowercased()) }) {
                return TitleAffix(site: split.site, rest: split.rest, isSuffix: split.isSuffix, evidence: .headline, separator: split.separator)
            }
        }
        return headlineThenParts(of: title, headlines: headlines) ?? trailingAddition(of: title, headlines: headlines)
    }

    /// "Headline - Full Text View - Registry", "Headline | Section | Brand":
    /// the page's headline, then the same separator before each of several
    /// parts; all of them go (evidence `.headline`: never after a colon).
    private static func headlineThenParts(of title: String, headlines: [String]) -> TitleAffix? {
        let lower = title.lowercased()
        for headline in headlines where !headline.isEmpty && lower.hasPrefix(headline) {
            let after = String(title.dropFirst(headline.count))
            guard let separator = titleSeparators.first(where: { after.hasPrefix($0) }),
                  after.dropFirst(separator.count).contains(separator) else { continue }
            return TitleAffix(site: String(after.dropFirst(separator.count)).trimmedSpaces, rest: String(title.prefix(headline.count)),
                              isSuffix: true, evidence: .headline, separator: separator)
        }
        return nil
    }

    /// "Headline | World | Acme" with the site cut: a section left at the
    /// same end after the same separator goes too, when what remains is
    /// the page's headline (`<h1>`, JSON-LD `headline`); otherwise the
    /// rest stays as it is ("Rust 1.80 | Release notes" with no such
    /// headline).
    private static func withoutSection(_ split: TitleAffix, in page: PageIndex) -> TitleAffix {
        guard let section = titleSplits(split.rest).first(where: { $0.isSuffix == split.isSuffix && $0.separator == split.separator }),
              pageHeadlines(in: page).contains(where: { $0.lowercased() == section.rest.lowercased() }) else { return split }
        var cut = split
        cut.rest = section.rest
        return cut
    }

    /// "Headline (Published 2021)" beside a headline "Headline": the
    /// parenthesised end is an addition the page's other headlines lack.
    private static func trailingAddition(of title: String, headlines: [String]) -> TitleAffix? {
        guard title.hasSuffix(")"), let open = title.ranges(of: " (").last else { return nil }
        let rest = String(title[..<open.lowerBound]).trimmedSpaces
        let addition = String(title[open.upperBound...].dropLast())
        guard !rest.isEmpty, !addition.isEmpty, !addition.contains("("), headlines.contains(rest.lowercased()) else { return nil }
        return TitleAffix(site: addition, rest: rest, isSuffix: true, evidence: .addition, separator: " (")
    }

    /// The site name a `<title>` carries, for `siteName` when nothing declares one.
    static func titleAffixSiteName(in page: PageIndex, knownSplit: (text: String, affix: TitleAffix?)? = nil)
        -> Picked<String>?
    {
        guard let title = page.titleText() else { return nil }
        let found = knownSplit.flatMap { $0.text == title ? $0.affix : nil }
        guard let affix = found ?? (knownSplit?.text == title ? nil : titleAffix(of: title, in: page)),
              affix.evidence != .addition else { return nil }
        return Picked(value: affix.site, source: affix.source)
    }

    /// The ways to cut `title` at a separator: the last part as a suffix,
    /// then the first part as a prefix (sites put their name last far more
    /// often). Searched as UTF-8 bytes: this runs on every page's title.
    static func titleSplits(_ title: String) -> [TitleAffix] {
        let bytes = Array(title.utf8)
        var splits: [TitleAffix] = []
        for (index, separator) in titleSeparatorBytes.enumerated() {
            let beside = index >= titleSeparators.count
            guard let first = firstOffset(of: separator, in: bytes, besideCJK: beside) else { continue }
            let last = lastOffset(of: separator, in: bytes, besideCJK: beside) ?? first
            let text = { (range: Range<Int>) in String(decoding: bytes[range], as: UTF8.self).trimmedSpaces }
            let written = String(decoding: separator, as: UTF8.self)
            splits.append(TitleAffix(site: text((last + separator.count)..<bytes.count), rest: text(0..<last),
                                     isSuffix: true, evidence: .siteName, separator: written))
            splits.append(TitleAffix(site: text(0..<first), rest: text((first + separator.count)..<bytes.count),
                                     isSuffix: false, evidence: .siteName, separator: written))
        }
        // "見出し【ブランド新聞】": a name in lenticular brackets at the end.
        if title.hasSuffix("】"), let open = title.lastIndex(of: "【") {
            splits.append(TitleAffix(site: String(title[open...].dropFirst().dropLast()).trimmedSpaces,
                                     rest: String(title[..<open]).trimmedSpaces, isSuffix: true, evidence: .siteName, separator: "【"))
        }
        return splits.filter { !$0.site.isEmpty && !$0.rest.isEmpty && $0.site.count <= maximumSiteNameLength }
    }

    /// Separators that CJK titles write without spaces ("見出し|ブランド",
    /// "見出し-ブランド"): separators only with a non-ASCII character right
    /// beside them, so "AC|DC" and "Spider-Man" stay whole.
    static let cjkTitleSeparators = ["|", "-"]

    private static let titleSeparatorBytes = (titleSeparators + cjkTitleSeparators).map { Array($0.utf8) }

    private static func firstOffset(of needle: [UInt8], in bytes: [UInt8], besideCJK: Bool = false) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle), !besideCJK || isBesideNonASCII(start, needle.count, bytes) {
                return start
            }
        }
        return nil
    }

    private static func lastOffset(of needle: [UInt8], in bytes: [UInt8], besideCJK: Bool = false) -> Int? {
        guard needle.count <= bytes.count else { return nil }
        for start in stride(from: bytes.count - needle.count, through: 0, by: -1) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle), !besideCJK || isBesideNonASCII(start, needle.count, bytes) {
                return start
            }
        }
        return nil
    }

    /// True when a byte of a multi-byte character touches the separator
    /// at `start` on either side.
    private static func isBesideNonASCII(_ start: Int, _ count: Int, _ bytes: [UInt8]) -> Bool {
        (start > 0 && bytes[start - 1] >= 0x80) || (start + count < bytes.count && bytes[start + count] >= 0x80)
    }

    /// True when `part` and `name` agree word for word on all the words of
    /// the shorter, which has at least four letters: "Acme News" and
    /// "Acme", "Acme" and "Acme - the daily paper"; not "Acmes" and "Acme".
    /// Given as their words (`formWords`).
    static func isLongerOrShorterForm(_ partWords: [Substring], of nameWords: [Substring]) -> Bool {
        let (short, long) = partWords.count <= nameWords.count ? (partWords, nameWords) : (nameWords, partWords)
        guard !short.isEmpty, short.count < long.count, short.joined().count >= 4 else { return false }
        return Array(long.prefix(short.count)) == short
    }

    /// The lowercased runs of letters and digits of `text`; on ASCII text,
    /// cut on the bytes (the same runs, without grapheme breaking).
    static func formWords(_ text: String) -> [Substring] {
        let lower = text.lowercased()
        guard ASCIIText.isASCII(lower) else { return lower.split { !$0.isLetter && !$0.isNumber } }
        return lower.utf8.split(whereSeparator: { !ASCIIText.isAlphanumeric($0) }).map { Substring($0) }
    }

    /// Site names are short; a longer part is a headline, not a name.
    static let maximumSiteNameLength = 60

    /// Names the page gives its site (declared, JSON-LD publisher and WebSite).
    static func siteNameCandidates(in page: PageIndex) -> [String] {
        var names = ["og:site_name", "application-name", "apple-mobile-web-app-title", "publisher", "dc.publisher"]
            .compactMap { page.metaText([$0])?.value }
        for node in page.jsonLD.contentNodes { names += page.jsonLD.names(node["publisher"]) }
        if let name = JSONLDGraph.text("name", in: page.jsonLD.nodes(ofType: ["website"])) { names.append(name) }
        return names
    }

    /// The host's registrable name, folded, with and without its suffix:
    /// "www.theverge.com" gives "theverge" and "thevergecom"; "news.bbc.co.uk"
    /// gives "bbc" and "bbccouk". A public-suffix list is not needed for a
    /// match against what the title says: a two-letter country code after a
    /// short second level ("co.uk", "com.au") is taken as the suffix.
    static func registrableNames(_ host: String?) -> [String] {
        guard let host else { return [] }
        let labels = host.lowercased().split(separator: ".").map(String.init)
        guard labels.count >= 2, !labels.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return [] }
        var suffixCount = 1
        if labels.count >= 3, labels[labels.count - 1].count == 2, labels[labels.count - 2].count <= 3 { suffixCount = 2 }
        let name = labels[labels.count - suffixCount - 1]
        let suffix = labels.suffix(suffixCount).joined()
        return [name, name + suffix].map(foldedName)
    }

    /// The page's titles other than `title` itself: `<title>`, Open Graph,
    /// Twitter and JSON-LD headline.
    private static func otherTitles(than title: String, in page: PageIndex) -> [String] {
        var titles = ["og:title", "twitter:title"].compactMap { page.metaText([$0])?.value }
        if let text = page.titleText() { titles.append(text) }
        if let headline = JSONLDGraph.text("headline", in: page.jsonLD.contentNodes) { titles.append(headline) }
        return titles.filter { $0 != title }
    }

    /// True when another title of the page carries the same affix at the
    /// same end, after the same separator, around a different text ("Bob
    /// Dylan | Wiki" and "Bob Dylan, singer | Wiki"): the shared part is the
    /// site, which a site's title template writes one way. A title that only
    /// adds another affix to the same text ("Kicker: Text" and "Kicker: Text
    /// - Site") shows nothing about the kicker, and neither does one whose
    /// part is cut at another separator ("Rust 1.80 - Rust Blog" beside
    /// "Rust 1.80: LazyCell and more": there "Rust 1.80" is the text, not
    /// an affix). `others` are the other titles' splits.
    private static func sharesAffix(_ split: FoldedSplit, with others: [FoldedSplit]) -> Bool {
        // Compared as letters and digits: quotes and dashes vary between a page's titles.
        others.contains { candidate in
            candidate.split.isSuffix == split.split.isSuffix && candidate.split.separator == split.split.separator
                && candidate.split.site == split.split.site
                && !candidate.rest.contains(split.rest) && !split.rest.contains(candidate.rest)
        }
    }

    /// A split with its parts folded (`foldedName`), for comparing.
    private struct FoldedSplit {
        let split: TitleAffix
        let site: String
        let rest: String

        init(_ split: TitleAffix) {
            self.split = split
            site = MetadataRules.foldedName(split.site)
            rest = MetadataRules.foldedName(split.rest)
        }
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
                  let type = link.element["type"]?.lowercased(), ASCIIText.holds(type, "rss") || ASCIIText.holds(type, "atom") else { return nil }
            return TextCleaner.clean(link.element["title"])
        }
    }
}
