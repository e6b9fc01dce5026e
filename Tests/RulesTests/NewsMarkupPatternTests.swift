import PureTestSupport
import Testing
import Metadata
@testable import Rules

/// Bylines, dates and titles in the shapes news sites write them beyond
/// the plain byline box: `<address>`, "By … on <date>" paragraphs, wire
/// agencies after names, JSON-LD organisations beside people, microdata
/// names in `<meta>`, CJK titles with unspaced separators (hand-written
/// markup, no page copied), read as the engine reads them.
@Suite struct NewsMarkupPatternTests {
    private func page(head: String = "", lang: String = "en", title: String = "Page", _ lead: String) -> String {
        """
        <!doctype html><html lang="\(lang)"><head><meta charset="utf-8"><title>\(title)</title>\(head)</head><body>
        <header class="site-header"><nav><a href="/">Home</a> <a href="/world">World</a></nav></header>
        <main><article><h1>Storm hits the coast overnight</h1>\(lead)
        <p>The storm reached the coast late on Monday, bringing heavy rain and strong winds to several towns along the shore, officials said.</p>
        </article></main><footer><p>Acme News</p></footer></body></html>
        """
    }

    /// A credit line that starts with "By" and names a person gives the
    /// date after the name too, in any element (`<p class="meta">`,
    /// `<address>`), and the date's commas do not part the name.
    @Test(arguments: [
        ("<p class=\"meta\">By Jane Doe on March 9, 2021</p>", "2021-03-09"),
        ("<p class=\"meta\">By Jane Doe on Tuesday, March 9, 2021 8:15 PM</p>", "2021-03-09T20:15:00"),
        ("<p class=\"meta\">By Jane Doe on March 9, 2021 at 8:15 a.m. ET</p>", "2021-03-09T08:15:00-05:00"),
        ("<p class=\"meta\">By Jane Doe on Mar. 9, 2021 8:15 a.m. ET</p>", "2021-03-09T08:15:00-05:00"),
        ("<address>By Jane Doe<br>9 March 2021, 08:15 GMT</address>", "2021-03-09T08:15:00Z"),
        ("<address>By Jane Doe<br>2021年3月9日(火) 8:15</address>", "2021-03-09T08:15:00"),
        ("<p class=\"meta\">By Jane Doe on March 09, 2021 08:15 AM IST</p>", "2021-03-09T08:15:00+05:30"),
    ])
    func aCreditLineGivesTheDateAfterTheName(markup: String, date: String) {
        let metadata = extractHTML(page(markup))
        #expect(metadata.author == "Jane Doe")
        #expect(metadata.publishedTime == date)
    }

    @Test(arguments: [
        ("By JANE DOE Associated Press", ["JANE DOE"]),
        ("By JANE DOE and JOHN ROE Associated Press", ["JANE DOE", "JOHN ROE"]),
        ("By JANE DOE, Associated Press", ["JANE DOE"]),
        ("By Jane Doe, The Associated Press", ["Jane Doe"]),
        ("By Jane Doe Reuters", ["Jane Doe"]),
        ("Jane Doe / AFP", ["Jane Doe"]),
        ("By Jane Doe (AP)", ["Jane Doe"]),
        ("Von Anna Schmidt, dpa", ["Anna Schmidt"]),
        // The agency alone is kept; a name that merely ends like one is a name.
        ("Associated Press", ["Associated Press"]),
        ("By Michael Bloomberg", ["Michael Bloomberg"]),
        ("By Ann Ap", ["Ann Ap"]),
    ])
    func aWireAgencyAfterTheNamesIsNoAuthor(credit: String, names: [String]) {
        #expect(MetadataRules.authorNames(credit) == names)
        #expect(extractHTML(page("<div class=\"byline\">\(credit)</div>")).authors == names)
    }

    @Test func aDeclaredAgencyLosesToTheBylinesPerson() {
        let html = page(head: "<meta name=\"author\" content=\"Reuters\">", "<div class=\"byline\">By Jane Doe</div>")
        #expect(extractHTML(html).author == "Jane Doe")
    }

    @Test(arguments: [
        ("文：山田太郎と鈴木花子", ["山田太郎", "鈴木花子"]),
        ("文・山田太郎、鈴木花子", ["山田太郎", "鈴木花子"]),
        ("マイク・ジョーンズと田中一郎", ["マイク・ジョーンズ", "田中一郎"]),
        // と among kana belongs to a name.
        ("文：さとみ", ["さとみ"]),
    ])
    func japaneseCreditsPartTheirPeople(credit: String, names: [String]) {
        #expect(MetadataRules.authorNames(credit) == names)
    }

    @Test func aBeatBeforeARoleNounIsAJobTitle() {
        let html = page("""
            <div class="author"><div class="author-name">Jane Doe</div><div class="author-role">Transport Correspondent</div></div>
            """)
        #expect(extractHTML(html).authors == ["Jane Doe"])
        #expect(MetadataRules.authorNames("Jane Doe, Chief Political Editor") == ["Jane Doe"])
        #expect(MetadataRules.isJobTitle("Science Writer"))
        #expect(!MetadataRules.isJobTitle("Jane Doe"))
    }

    @Test func aRankedTitleRunOnAfterTheNameGoesButADesksNameStays() {
        #expect(extractHTML(page("<address>By Jane Doe<br>Senior Reporter</address>")).author == "Jane Doe")
        #expect(MetadataRules.authorNames("By Jane Doe Staff Writer") == ["Jane Doe"])
        #expect(MetadataRules.authorNames("Acme Business News Correspondent") == ["Acme Business News Correspondent"])
        #expect(MetadataRules.authorNames("Senior Science Writer") == ["Senior Science Writer"])
    }

    @Test(arguments: [("山田太郎 記者", "山田太郎"), ("山田太郎記者", "山田太郎"), ("홍길동 기자", "홍길동"), ("王小明 记者", "王小明")])
    func aCJKReportersTitleAfterTheNameGoes(credit: String, name: String) {
        #expect(MetadataRules.authorNames(credit) == [name])
    }

    @Test(arguments: ["Jane Doe - Acme News", "Jane Doe | Acme News", "Jane Doe, Acme News"])
    func theSitesNameGluedToADeclaredAuthorGoes(credit: String) {
        let head = "<meta name=\"author\" content=\"\(credit)\"><meta property=\"og:site_name\" content=\"Acme News\">"
        #expect(extractHTML(page(head: head, "")).authors == ["Jane Doe"])
    }

    @Test func aDeclaredAuthorThatIsTheSiteAloneStays() {
        let head = "<meta name=\"author\" content=\"Acme News\"><meta property=\"og:site_name\" content=\"Acme News\">"
        #expect(extractHTML(page(head: head, "")).author == "Acme News")
    }

    @Test func aDeclaredDateWithALabelAroundItGivesTheDate() {
        let head = "<meta property=\"article:published_time\" content=\"Published 3 hours ago · March 9, 2021\">"
        #expect(extractHTML(page(head: head, "")).publishedTime == "2021-03-09")
        // A value in no known form is still kept as written.
        let other = "<meta property=\"article:published_time\" content=\"Spring 2021\">"
        #expect(extractHTML(page(head: other, "")).publishedTime == "Spring 2021")
    }

    @Test func aCJKTitleLosesTheSiteInLenticularBracketsAtItsEnd() {
        let html = """
            <!doctype html><html lang="ja"><head><meta charset="utf-8"><title>市議会、港への路面電車延伸を可決【ブランド新聞】</title>\
            <meta property="og:site_name" content="ブランド新聞"></head><body><h1>市議会、港への路面電車延伸を可決</h1></body></html>
            """
        #expect(extractHTML(html).title == "市議会、港への路面電車延伸を可決")
        let kicker = """
            <!doctype html><html lang="ja"><head><meta charset="utf-8"><title>市議会、港への路面電車延伸を可決【動画】</title>\
            <meta property="og:site_name" content="ブランド新聞"></head><body><p>本文。</p></body></html>
            """
        #expect(extractHTML(kicker).title == "市議会、港への路面電車延伸を可決【動画】")
    }

    @Test func aMicrodataAuthorNamedInAMetaGivesThatName() {
        let html = page("""
            <div itemprop="author" itemscope itemtype="https://schema.org/Person"><meta itemprop="name" content="Jane Doe">\
            <a href="/people/jane-doe" itemprop="url">View profile</a></div>
            """)
        #expect(extractHTML(html).author == "Jane Doe")
    }

    @Test func aMetaNameAfterAnotherItemsPropertyIsNotTheAuthors() {
        let html = page("""
            <div itemprop="author" itemscope itemtype="https://schema.org/Person">Jane Doe</div>\
            <div itemprop="publisher" itemscope itemtype="https://schema.org/Organization"><meta itemprop="name" content="Acme News"></div>
            """)
        #expect(extractHTML(html).author == "Jane Doe")
    }

    private static let article = #""@context":"https://schema.org","@type":"NewsArticle","headline":"Storm hits the coast overnight""#

    @Test(arguments: [
        #"[{"@type":"Organization","name":"Acme News"},{"@type":"Person","name":"Jane Doe"}]"#,
        #"[{"@type":"Person","name":"Jane Doe"},{"@type":"NewsMediaOrganization","name":"Acme Media Group"}]"#,
        #"[{"@type":"Organization","name":"Acme Media Group"},"Jane Doe"]"#,
    ])
    func anOrganisationBesideAPersonIsNoAuthor(authors: String) {
        let html = page(head: "<script type=\"application/ld+json\">{\(Self.article),\"author\":\(authors)}</script>", "")
        #expect(extractHTML(html).authors == ["Jane Doe"])
    }

    @Test func organisationReferencesInAGraphGiveWayToThePerson() {
        let graph = #"""
            {"@context":"https://schema.org","@graph":[
            {"@type":"NewsArticle","headline":"Storm hits the coast overnight","author":[{"@id":"https://example.com/#org"},{"@id":"https://example.com/#p1"}]},
            {"@type":"Person","@id":"https://example.com/#p1","name":"Jane Doe"},
            {"@type":"Organization","@id":"https://example.com/#org","name":"Acme Media Group"}]}
            """#
        #expect(extractHTML(page(head: "<script type=\"application/ld+json\">\(graph)</script>", "")).authors == ["Jane Doe"])
    }

    @Test func anOrganisationAloneLosesToTheBylinesPersonAndStandsWithoutOne() {
        let head = "<script type=\"application/ld+json\">{\(Self.article),\"author\":{\"@type\":\"Organization\",\"name\":\"Acme Media Group\"}}</script>"
        #expect(extractHTML(page(head: head, "<div class=\"byline\">By Jane Doe</div>")).author == "Jane Doe")
        #expect(extractHTML(page(head: head, "")).author == "Acme Media Group")
    }

    @Test(arguments: [
        ("市議会、港への路面電車延伸を可決|ブランド新聞", "<meta property=\"og:site_name\" content=\"ブランド新聞\">"),
        ("市議会、港への路面電車延伸を可決|ブランド新聞", ""),
        ("市議会、港への路面電車延伸を可決-ブランド新聞", "<meta property=\"og:site_name\" content=\"ブランド新聞\">"),
        ("市議会、港への路面電車延伸を可決|Brand", "<meta property=\"og:site_name\" content=\"Brand\">"),
        ("市議会、港への路面電車延伸を可決|社会|ブランド新聞", "<meta property=\"og:site_name\" content=\"ブランド新聞\">"),
    ])
    func aCJKTitleLosesABrandAfterAnUnspacedSeparator(title: String, head: String) {
        let html = """
            <!doctype html><html lang="ja"><head><meta charset="utf-8"><title>\(title)</title>\(head)</head><body>
            <main><article><h1>市議会、港への路面電車延伸を可決</h1><p>本文。</p></article></main></body></html>
            """
        let metadata = extractHTML(html)
        #expect(metadata.title == "市議会、港への路面電車延伸を可決")
        #expect(metadata.rawTitle == title)
    }

    @Test(arguments: ["AC|DC", "Spider-Man"])
    func anUnspacedSeparatorBetweenLatinLettersSplitsNothing(title: String) {
        let head = "<meta property=\"og:site_name\" content=\"\(title.split(whereSeparator: { $0 == "|" || $0 == "-" }).last ?? "")\">"
        let html = "<!doctype html><html><head><title>\(title)</title>\(head)</head><body><h1>\(title.prefix(2))</h1></body></html>"
        #expect(extractHTML(html).title == title)
    }
}
