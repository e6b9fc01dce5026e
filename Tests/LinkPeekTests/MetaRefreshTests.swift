import FoundationEssentials
import HTMLHead
import LinkPeekTestSupport
import Testing

@testable import LinkPeek

struct MetaRefreshTests {
    @Test func contentAttributesParseAsBrowsersReadThem() {
        let cases: [(String, MetaRefresh?)] = [
            ("0; url=https://example.com/", MetaRefresh(delay: 0, url: "https://example.com/")),
            ("0;URL=https://example.com/", MetaRefresh(delay: 0, url: "https://example.com/")),
            ("  3 ;  uRl =  /next?a=1 ", MetaRefresh(delay: 3, url: "/next?a=1")),
            ("0, url=/comma", MetaRefresh(delay: 0, url: "/comma")),
            ("0 url=/space", MetaRefresh(delay: 0, url: "/space")),
            ("1; url='/quoted' trailing", MetaRefresh(delay: 1, url: "/quoted")),
            ("1; URL=\"/double\"", MetaRefresh(delay: 1, url: "/double")),
            ("1; url='unterminated", MetaRefresh(delay: 1, url: "unterminated")),
            ("2.5; url=/fraction", MetaRefresh(delay: 2, url: "/fraction")),
            (".5; url=/dot", MetaRefresh(delay: 0, url: "/dot")),
            ("0; /no-label", MetaRefresh(delay: 0, url: "/no-label")),
            ("0; urlish", MetaRefresh(delay: 0, url: "urlish")),
            ("5", MetaRefresh(delay: 5, url: nil)),
            ("5;", MetaRefresh(delay: 5, url: nil)),
            ("0; url=", MetaRefresh(delay: 0, url: nil)),
            ("99999999999999999999999999; url=/far", MetaRefresh(delay: Int.max, url: "/far")),
            ("", nil),
            ("url=/x", nil),
            ("abc", nil),
            ("5x; url=/y", nil),
            ("-1; url=/z", nil),
        ]
        for (content, expected) in cases {
            #expect(MetaRefresh(content: content) == expected, "content: \(content)")
        }
    }

    @Test func randomBytesNeverTrap() {
        var generator = SeededGenerator(seed: 19)
        print("MetaRefreshTests seed 19")
        let alphabet = Array("0123456789.;, \t\n'\"=uUrRlL/:?#%\u{0}é".unicodeScalars)
        for _ in 0..<2000 {
            let length = Int.random(in: 0..<40, using: &generator)
            var text = String.UnicodeScalarView()
            for _ in 0..<length { text.append(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]) }
            let parsed = MetaRefresh(content: String(text))
            // Whatever it is, a parsed target is trimmed and never empty.
            if let url = parsed?.url { #expect(!url.isEmpty && url == url.trimmedForTest) }
        }
    }

    private func page(_ elements: [HTMLElement]) -> HeadDocument {
        HeadDocument(elements: elements, headComplete: true)
    }

    private func refresh(_ content: String) -> HTMLElement {
        HTMLElement(name: "meta", attributes: ["http-equiv": "Refresh", "content": content])
    }

    @Test func aBareRefreshIsARedirectResolvedAgainstBaseAndPage() {
        let pageURL = "https://short.test/abc"
        #expect(MetaRefresh.redirectTarget(in: page([refresh("0; url=https://dest.test/x")]), pageURL: pageURL)
            == "https://dest.test/x")
        #expect(MetaRefresh.redirectTarget(in: page([refresh("0;url=/next")]), pageURL: pageURL)
            == "https://short.test/next")
        let based = page([HTMLElement(name: "base", attributes: ["href": "https://cdn.test/dir/"]), refresh("1; url=page")])
        #expect(MetaRefresh.redirectTarget(in: based, pageURL: pageURL) == "https://cdn.test/dir/page")
        // The shortener's way: the title is the target's URL.
        let titled = page([
            HTMLElement(name: "title", text: "https://dest.test/x"), refresh("0; URL=https://dest.test/x"),
        ])
        #expect(MetaRefresh.redirectTarget(in: titled, pageURL: pageURL) == "https://dest.test/x")
    }

    @Test func pagesWithTheirOwnTitleOrSlowOrSelfRefreshesAreNotRedirects() {
        let pageURL = "https://news.test/live"
        let own = page([HTMLElement(name: "title", text: "Live scores"), refresh("0; url=/live?page=2")])
        #expect(MetaRefresh.redirectTarget(in: own, pageURL: pageURL) == nil)
        let ogTitle = page([
            HTMLElement(name: "meta", attributes: ["property": "og:title", "content": "Scores"]), refresh("0; url=/other"),
        ])
        #expect(MetaRefresh.redirectTarget(in: ogTitle, pageURL: pageURL) == nil)
        #expect(MetaRefresh.redirectTarget(in: page([refresh("6; url=/later")]), pageURL: pageURL) == nil)
        #expect(MetaRefresh.redirectTarget(in: page([refresh("30")]), pageURL: pageURL) == nil)
        #expect(MetaRefresh.redirectTarget(in: page([refresh("0; url=/live#top")]), pageURL: pageURL) == nil)
        #expect(MetaRefresh.redirectTarget(in: page([refresh("0; url=javascript:alert(1)")]), pageURL: pageURL) == nil)
        #expect(MetaRefresh.redirectTarget(in: page([refresh("0; url=ftp://files.test/")]), pageURL: pageURL) == nil)
        #expect(MetaRefresh.redirectTarget(in: page([refresh("garbage")]), pageURL: pageURL) == nil)
        // An empty title is no title.
        let blank = page([HTMLElement(name: "title", text: "  "), refresh("0; url=/go")])
        #expect(MetaRefresh.redirectTarget(in: blank, pageURL: pageURL) == "https://news.test/go")
    }

    @Test func refreshHopsSayRefreshOnTheWire() throws {
        var metadata = LinkMetadata(originalURL: "https://a.test/")
        metadata.redirects = [RedirectHop(url: "https://a.test/", status: 301), .refresh(url: "https://b.test/")]
        let json = String(decoding: try metadata.jsonBytes(), as: UTF8.self)
        #expect(json.contains(#"{"status":"refresh","url":"https://b.test/"}"#))
        #expect(json.contains(#"{"status":301,"url":"https://a.test/"}"#))
        let decoded = try JSONDecoder().decode(LinkMetadata.self, from: Data(json.utf8))
        #expect(decoded.redirects == metadata.redirects)
    }
}

extension String {
    fileprivate var trimmedForTest: String {
        String(unicodeScalars.drop { $0.properties.isWhitespace }.reversed().drop { $0.properties.isWhitespace }.reversed()
            .map(Character.init))
    }
}
