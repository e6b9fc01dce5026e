import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

/// Authors as people write them, one test per pattern that real bylines
/// and author tags show (hand-written markup, no page copied).
@Suite struct AuthorPatternTests {
    private func marked(_ name: String = "div", _ attributes: [String: String], _ text: String) -> HTMLElement {
        HTMLElement(name: name, attributes: attributes, text: text, inBody: true, isFallback: true)
    }

    @Test(arguments: [
        ("By Ann Lee", "Ann Lee"), ("ByAnn Lee", "Ann Lee"), ("Written by Ann Lee", "Ann Lee"),
        ("Par Jean Dupont", "Jean Dupont"), ("Por Ana Gómez", "Ana Gómez"), ("Von Max Muster", "Max Muster"),
        ("Di Marco Rossi", "Marco Rossi"), ("Door Jan Jansen", "Jan Jansen"), ("Av Lars Berg", "Lars Berg"),
        ("文／王小明", "王小明"), ("作者：李雷", "李雷"), ("著者：山田太郎", "山田太郎"), ("By: Ann Lee", "Ann Lee"),
    ])
    func bylinePrefixesGo(credit: String, name: String) {
        #expect(MetadataRules.authorNames(credit) == [name])
        #expect(extract([marked("div", ["class": "byline"], credit)]).author == name)
    }

    @Test(arguments: [
        ("By Ann Lee • 5 min read", ["Ann Lee"]),
        ("Ann Lee 5 min read", ["Ann Lee"]),
        ("Ann Lee @annlee", ["Ann Lee"]),
        ("By Ann Lee March 9, 2021", ["Ann Lee"]),
        ("Ann Lee | Updated March 9, 2021", ["Ann Lee"]),
        ("Ann Lee, Senior Editor", ["Ann Lee"]),
        ("Posted by Ann Lee, Vice President, Acme Cloud", ["Ann Lee"]),
        ("Ann Lee, Reporter, Acme News and Bo Kim", ["Ann Lee", "Bo Kim"]),
        ("Ann Lee Follow", ["Ann Lee"]),
        ("By Ann Lee and Bo Kim", ["Ann Lee", "Bo Kim"]),
        ("Ann Lee, Bo Kim and Cy Dow", ["Ann Lee", "Bo Kim", "Cy Dow"]),
        ("Ann Lee & Bo Kim", ["Ann Lee", "Bo Kim"]),
        ("Par Jean Dupont et Marie Curie", ["Jean Dupont", "Marie Curie"]),
        ("By Ann Lee. Illustrations by Bo Kim", ["Ann Lee"]),
        ("Written by Ann Lee, translated by Bo Kim", ["Ann Lee"]),
        ("Text: Ann Lee; Photos: Bo Kim", ["Ann Lee"]),
        ("Posted on March 9, 2021 by Ann Lee", ["Ann Lee"]),
        ("Ann Lee 2 days ago", ["Ann Lee"]),
        ("Ann Lee (@annlee)", ["Ann Lee"]),
        ("Ann Lee, Ph.D.", ["Ann Lee"]),
        ("BY ANN LEE AND BO KIM", ["ANN LEE", "BO KIM"]),
        ("Ann Lee, Special to Acme News", ["Ann Lee"]),
        ("Ann Lee in London", ["Ann Lee"]),
        ("文：山田太郎　イラスト：佐藤花子", ["山田太郎"]),
        ("文／山田太郎、写真／佐藤花子", ["山田太郎"]),
        ("Texto: Juan Pérez. Fotos: Ana Gómez", ["Juan Pérez"]),
        ("Reporting by Ann Lee; Editing by Bo Kim", ["Ann Lee"]),
        ("BYAnn Lee", ["Ann Lee"]),
        ("Ann LeeFollow", ["Ann Lee"]),
        ("Reporter: Ann Lee", ["Ann Lee"]),
        ("Contributor: Ann Lee", ["Ann Lee"]),
        ("By Ann Lee ann.lee@example.com", ["Ann Lee"]),
    ])
    func aCreditLineGivesItsPeopleOnly(credit: String, names: [String]) {
        #expect(MetadataRules.authorNames(credit) == names)
    }

    @Test(arguments: ["Follow", "See all", "Write", "https://example.com/ann", "@annlee", "More from this author"])
    func interfaceWordsURLsAndHandlesAreNoNames(credit: String) {
        #expect(extract([marked("div", ["class": "author"], credit)]).author == nil)
    }

    @Test func everyAuthorIsKeptAndJoinedWithCommas() {
        let page = extract([Tag.meta(name: "author", "Ann Lee"), Tag.meta(name: "author", "Bo Kim")])
        #expect(page.authors == ["Ann Lee", "Bo Kim"])
        #expect(page.author == "Ann Lee, Bo Kim")
    }

    @Test func aProfileURLGoesToAuthorURLAndTheNameComesFromElsewhere() {
        let page = extract([Tag.meta(property: "article:author", "https://example.com/people/ann-lee"),
                            Tag.meta(name: "author", "Ann Lee")])
        #expect(page.author == "Ann Lee")
        #expect(page.authorURL == "https://example.com/people/ann-lee")
        #expect(page.sources?["authorURL"] == "article:author")
        let bare = extract([Tag.meta(property: "article:author", "www.example.org/ann"), Tag.meta(name: "author", "Ann Lee")])
        #expect(bare.authorURL == "https://www.example.org/ann")
    }

    @Test func aSlugLosesToTheJSONLDName() {
        let page = extract([Tag.meta(name: "author", "ann-lee"),
                            Tag.jsonLD(#"{"@type":"NewsArticle","author":{"@type":"Person","name":"Ann Lee","url":"https://example.com/ann"}}"#)])
        #expect(page.author == "Ann Lee")
        #expect(page.sources?["author"] == "json-ld:author")
        #expect(page.authorURL == "https://example.com/ann")
    }

    private func article(head: String = "", _ body: String) -> String {
        "<html><head><title>Storm</title>\(head)</head><body><article><h1>Storm</h1>\(body)<p>Text.</p></article></body></html>"
    }

    private func person(_ name: String) -> String {
        "<span itemprop=\"author\" itemscope itemtype=\"https://schema.org/Person\"><span itemprop=\"name\">\(name)</span></span>"
    }

    @Test func aLoginLosesToTheDisplayNameOfAMicrodataAuthorOrAByline() {
        let login = "<meta name=\"author\" content=\"alee\">"
        #expect(extractHTML(article(head: login, "<div>\(person("Ann Lee"))</div>")).author == "Ann Lee")
        #expect(extractHTML(article(head: login, "<p class=\"byline\">By Ann Lee</p>")).author == "Ann Lee")
        // With nothing else the login stands.
        #expect(extractHTML(article(head: login, "")).author == "alee")
    }

    @Test func severalMicrodataAuthorsOfOneBylineAreAllKeptButNotAListsAuthors() {
        let byline = "<div>By \(person("Ann Lee")) and \(person("Bo Kim"))</div>"
        #expect(extractHTML(article(byline)).authors == ["Ann Lee", "Bo Kim"])
        let item = { (headline: String, name: String) in
            "<li itemscope itemtype=\"https://schema.org/Article\"><span itemprop=\"headline\">\(headline)</span>\(self.person(name))</li>"
        }
        let list = "<ul>\(item("One story", "Ann Lee"))\(item("Another story", "Bo Kim"))</ul>"
        #expect(extractHTML(article(list)).authors == ["Ann Lee"])
    }

    @Test func aGenericCreditLosesToAVisibleBylineThatNamesAPerson() {
        let byline = marked("span", ["class": "byline"], "By Ann Lee")
        #expect(extract([Tag.meta(name: "author", "Staff"), byline]).author == "Ann Lee")
        let site = [Tag.meta(property: "og:site_name", "Daily Planet"), Tag.meta(name: "author", "Daily Planet")]
        #expect(extract(site + [byline]).author == "Ann Lee")
        // Without a byline the declared credit stands.
        #expect(extract([Tag.meta(name: "author", "Staff")]).author == "Staff")
        #expect(extract([Tag.meta(name: "author", "Staff Reports"), byline]).author == "Ann Lee")
        for desk in ["Redaktion", "La rédaction", "Redacción", "アクメ編集部"] {
            #expect(extract([Tag.meta(name: "author", desk), byline]).author == "Ann Lee")
        }
        // A declared person is not overruled by a byline.
        #expect(extract([Tag.meta(name: "author", "Bo Kim"), byline]).author == "Bo Kim")
    }

    @Test func theBylineMetaOfNewsSites() {
        #expect(extract([Tag.meta(name: "byl", "By Ann Lee and Bo Kim")]).authors == ["Ann Lee", "Bo Kim"])
    }

    @Test func aBylineBoxWithTwoAuthorLinksGivesBoth() {
        let box = marked("div", ["class": "article-byline"], "By Ann Lee and Bo Kim · 5 min read")
        let ann = marked("a", ["rel": "author", "href": "/people/ann"], "Ann Lee")
        let bo = marked("a", ["rel": "author", "href": "/people/bo"], "Bo Kim")
        #expect(extract([box, ann, bo]).authors == ["Ann Lee", "Bo Kim"])
    }

    @Test func aWriterSpanAndAVCardCiteAreBylines() {
        #expect(extract([marked("span", ["class": "writer"], "Ann Lee")]).author == "Ann Lee")
        let cite = marked("cite", ["class": "byline vcard"], "By Ann Lee")
        let fn = marked("span", ["class": "fn"], "Ann Lee")
        #expect(extract([cite, fn]).author == "Ann Lee")
        #expect(extract([marked("div", ["class": "article_byline"], "By Ann Lee | March 9, 2021")]).author == "Ann Lee")
    }

    @Test func aTestIDThatSaysAuthorMarksALink() {
        let link = marked("a", ["data-testid": "author-link", "href": "/people/ann"], "Ann Lee")
        #expect(extract([link]).author == "Ann Lee")
    }
}
