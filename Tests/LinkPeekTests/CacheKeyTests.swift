import Testing

@testable import LinkPeek

struct CacheKeyTests {
    @Test(arguments: [
        ("HTTP://Example.COM/", "http://example.com/"),
        ("http://example.com", "http://example.com/"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("https://example.com:8443/a", "https://example.com:8443/a"),
        ("http://example.com:080/", "http://example.com/"),
        ("http://example.com/a#frag", "http://example.com/a"),
        ("http://example.com/#", "http://example.com/"),
        ("  http://example.com/a  ", "http://example.com/a"),
        ("http://example.com/%7euser/%41%2f?q=%3d%7E", "http://example.com/~user/A%2F?q=%3D~"),
        ("http://example.com/a%2fb", "http://example.com/a%2Fb"),
        ("http://example.com/a b", "http://example.com/a%20b"),
        ("http://example.com/ü", "http://example.com/%C3%BC"),
        ("http://example.com/100%", "http://example.com/100%25"),
        ("http://bücher.de/", "http://xn--bcher-kva.de/"),
        ("http://MÜNCHEN.de/", "http://xn--mnchen-3ya.de/"),
        ("http://xn--bcher-kva.de/", "http://xn--bcher-kva.de/"),
        ("http://[::1]:80/", "http://[::1]/"),
        ("http://[::1]:8080/x", "http://[::1]:8080/x"),
        ("http://User@Example.com/", "http://User@example.com/"),
        ("http://example.com?x", "http://example.com/?x"),
    ])
    func normalises(raw: String, expected: String) {
        #expect(URLNormalizer.normalize(raw) == expected)
    }

    @Test(arguments: ["", "example.com", "ftp://example.com/", "http:/x", "http://", "http://:80/",
                      "http://example.com:8x/", "http://[::1/", "mailto:a@b.c"])
    func refuses(raw: String) {
        #expect(URLNormalizer.normalize(raw) == nil)
    }

    @Test func punycodeMatchesRFC3492Samples() {
        // RFC 3492 §7.1 (A) Arabic (Egyptian) and (L) the Japanese sample.
        let arabic = "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}"
        #expect(Punycode.encode(Array(arabic.unicodeScalars)) == "egbpdaj6bu4bxfgehfvwxn")
        #expect(Punycode.encode(Array("3年B組金八先生".unicodeScalars)) == "3B-ww4c5e180e575a65lsy2b")
    }

    @Test func languageIsPartOfTheKey() throws {
        let english = try #require(CacheKey(rawURL: "http://example.com/", language: "en"))
        let french = try #require(CacheKey(rawURL: "HTTP://example.com", language: " fr "))
        let none = try #require(CacheKey(rawURL: "http://example.com/#x"))
        #expect(english != french)
        #expect(french.description == "http://example.com/\nfr")
        #expect(none.description == "http://example.com/")
        #expect(english.with(url: "http://EXAMPLE.com/b")?.description == "http://example.com/b\nen")
    }
}
