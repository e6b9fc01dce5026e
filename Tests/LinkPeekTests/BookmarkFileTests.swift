import Testing

@testable import LinkPeek

/// The bookmark file escapes with the cards' one HTML escaper, on one line.
@Suite struct BookmarkFileTests {
    @Test func textIsEscapedAndKeptOnOneLine() {
        #expect(BookmarkFile.escape(#"a<b>&"c"'d"#) == "a&lt;b&gt;&amp;&quot;c&quot;&#39;d")
        #expect(BookmarkFile.escape("one\r\ntwo\nthree\rfour") == "one two three four")
        #expect(BookmarkFile.escape("") == "")
    }

    @Test func aQuoteWithACombiningMarkIsStillEscaped() {
        // `"` followed by U+0301 is one Character; a Character-wise escaper
        // missed it and let the quote end the attribute.
        #expect(BookmarkFile.escape("x\"\u{301} onclick=\"y") == "x&quot;\u{301} onclick=&quot;y")
        #expect(BookmarkFile.escape("<\u{338}") == "&lt;\u{338}")
    }

    @Test func aTitleCannotOpenATagOrLeaveTheAttribute() {
        var link = LinkMetadata(originalURL: "https://example.com/?a=1&b=\"2\"")
        link.title = "</A><script>x</script>\u{301}"
        link.summary = "line one\nline two"
        let html = BookmarkFile.html([link])
        #expect(html.contains(#"HREF="https://example.com/?a=1&amp;b=&quot;2&quot;""#))
        #expect(html.contains("&lt;/A&gt;&lt;script&gt;x&lt;/script&gt;\u{301}</A>"))
        #expect(html.contains("    <DD>line one line two\n"))
        #expect(!html.contains("<script>"))
    }
}
