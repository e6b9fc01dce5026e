import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

@Suite struct MetadataRulesURLTests {
    @Test func relativeURLsResolveAgainstBaseHrefThenPage() {
        let withBase = extract([Tag.base("/static/"), Tag.meta(property: "og:image", "img/a.png")])
        #expect(withBase.image?.url == "https://example.com/static/img/a.png")
        let withoutBase = extract([Tag.meta(property: "og:image", "img/a.png")])
        #expect(withoutBase.image?.url == "https://example.com/articles/img/a.png")
    }

    @Test func protocolRelativeURLsTakeThePageScheme() {
        let metadata = extract([Tag.meta(property: "og:image", "//cdn.example/a.png")], url: "http://example.com/")
        #expect(metadata.image?.url == "http://cdn.example/a.png")
    }

    @Test func spacesAndUnicodeArePercentEncodedNotDropped() {
        let metadata = extract([Tag.meta(property: "og:image", " /images/my photo é.jpg?q=a b ")])
        #expect(metadata.image?.url == "https://example.com/images/my%20photo%20%C3%A9.jpg?q=a%20b")
        let escaped = extract([Tag.meta(property: "og:image", "/a%20b.jpg")])
        #expect(escaped.image?.url == "https://example.com/a%20b.jpg")
    }

    /// An href of bytes that all stay is returned as it is; any other byte
    /// is dropped, turned or escaped as a browser does, with or without the host kept raw.
    @Test(arguments: [
        ("https://example.com/a/b?c=d&e=f#g", "https://example.com/a/b?c=d&e=f#g", "https://example.com/a/b?c=d&e=f#g"),
        ("/img/a-b_c.~png;x=1,2*(3)!$'@[]", "/img/a-b_c.~png;x=1,2*(3)!$'@[]", "/img/a-b_c.~png;x=1,2*(3)!$'@[]"),
        ("", "", ""),
        ("a b", "a%20b", "a%20b"),
        ("a\tb\nc\rd", "abcd", "abcd"),
        ("a\\b", "a/b", "a/b"),
        ("%41%zz%", "%41%25zz%25", "%41%25zz%25"),
        ("a\"b<c>{d}|e^f`g", "a%22b%3Cc%3E%7Bd%7D%7Ce%5Ef%60g", "a%22b%3Cc%3E%7Bd%7D%7Ce%5Ef%60g"),
        ("https://bücher.example/ü", "https://bücher.example/%C3%BC", "https://b%C3%BCcher.example/%C3%BC"),
        ("\u{7F}\u{0}", "%7F%00", "%7F%00"),
    ])
    func browserEncodingKeepsOnlyWhatStays(href: String, keepingHost: String, encodingAll: String) {
        #expect(URLResolver.browserEncoded(href, keepingHost: true) == keepingHost)
        #expect(URLResolver.browserEncoded(href, keepingHost: false) == encodingAll)
    }

    @Test func internationalHostsBecomePunycodeNotPercentEscapes() {
        let metadata = extract([Tag.meta(property: "og:image", "https://münchen.de/bild ä.jpg")])
        #expect(metadata.image?.url == "https://xn--mnchen-3ya.de/bild%20%C3%A4.jpg")
    }

    @Test func faviconFallbackKeepsIPv6Brackets() {
        #expect(extract([], url: "http://[2001:db8::1]:8080/x").icon?.url == "http://[2001:db8::1]:8080/favicon.ico")
    }

    @Test func canonicalFromOpenGraphThenLinkAndOnlyWhenDeclared() {
        let both = extract([Tag.link(rel: "canonical", "/canon"), Tag.meta(property: "og:url", "https://example.com/og")])
        #expect(both.canonicalURL == "https://example.com/og")
        let link = extract([Tag.link(rel: "canonical", "/canon")])
        #expect(link.canonicalURL == "https://example.com/canon")
        #expect(link.sources?["canonicalURL"] == "link:canonical")
        let none = extract([])
        #expect(none.canonicalURL == nil, "canonicalURL is what the page declares; url says where it was found")
        #expect(none.sources?["canonicalURL"] == nil)
        #expect(none.url == pageURL)
    }

    @Test func originalURLAndURLAreThePageURL() {
        let metadata = extract([], url: "https://example.com/x?y=1")
        #expect(metadata.originalURL == "https://example.com/x?y=1")
        #expect(metadata.url == "https://example.com/x?y=1")
    }
}
