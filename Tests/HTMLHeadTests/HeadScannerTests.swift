import PureTestSupport
import Testing
@testable import HTMLHead

@Suite struct HeadScannerTests {
    @Test func collectsHeadElementsInOrder() {
        let document = scan("""
            <!DOCTYPE html><html lang="en-GB"><head><meta charset="utf-8">
            <title>Hello &amp; welcome</title>
            <meta property="og:title" content="OG &#39;title&#39; &eacute;t&eacute;">
            <link rel="icon" href="/favicon.png"><base href="https://example.com/">
            <style>p { color: red }</style>
            </head><body><p>text</p></body></html>
            """)
        // The body's paragraph is kept only as a fallback (BodyFallbackTests).
        #expect(document.elements.map(\.name) == ["meta", "title", "meta", "link", "base", "p"])
        #expect(document.elements.map(\.isFallback) == [false, false, false, false, false, true])
        #expect(document.title == "Hello & welcome")
        #expect(document.meta("og:title") == "OG 'title' été")
        #expect(document.all("link").first?["href"] == "/favicon.png")
        #expect(document.htmlLang == "en-GB")
        #expect(document.encoding == "UTF-8")
        #expect(document.headComplete)
        #expect(document.elements.allSatisfy { $0.inBody == $0.isFallback })
    }

    @Test func toleratesUppercaseUnquotedAndNoHead() {
        let document = scan("<TITLE>Shout</TITLE><META NAME=Description CONTENT=plain><LINK REL=canonical HREF=/c>")
        #expect(document.title == "Shout")
        #expect(document.all("meta").first?.attributes == ["name": "Description", "content": "plain"])
        #expect(document.all("link").first?["href"] == "/c")
    }

    @Test func readsXHTML() {
        let document = scan("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
            <html xmlns="http://www.w3.org/1999/xhtml" xml:lang="fr" lang="fr"><head>
            <meta name="description" content="x" /><title>XHTML</title><link rel="icon" href="i.ico"/>
            </head><body/></html>
            """)
        #expect(document.title == "XHTML")
        #expect(document.meta("description") == "x")
        #expect(document.all("link").count == 1)
        #expect(document.htmlLang == "fr")
        #expect(scan(#"<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="nl"><title>t</title>"#).htmlLang == "nl")
    }

    @Test func ignoresTitleInsideSVGAndMath() {
        let document = scan("""
            <html><head><title>Page</title></head><body>
            <svg><title>Icon</title><g><title>Group</title></g></svg>
            <math><title>Formula</title></math><title>Late</title></body></html>
            """)
        #expect(document.all("title").map(\.text) == ["Page", "Late"])
    }

    @Test func capturesJSONLD() {
        let json = #"{"@type": "Article", "headline": "a < b && c"}"#
        let document = scan("""
            <head><script type="application/ld+json">\(json)</script>
            <script>var ignored = 1;</script><script type="text/javascript">x()</script>
            <script type=" Application/LD+JSON; charset=utf-8 ">[1]</script></head>
            """)
        let scripts = document.all("script")
        #expect(scripts.map(\.text) == [json, "[1]"])
    }

    @Test func capturesItempropText() {
        let long = String(repeating: "é", count: 600)
        let document = scan("""
            <body><div itemscope itemtype="https://schema.org/Person">
            <span itemprop="name">
              Ada <b>Lovelace</b>
            </span><meta itemprop="birthDate" content="1815-12-10">
            <p itemprop="description">\(long)</p></div></body>
            """)
        let props = document.elements.filter { $0["itemprop"] != nil }
        #expect(props.map(\.name) == ["span", "meta", "p"])
        #expect(props[0].text == "Ada Lovelace")
        #expect(props[1].text == nil)
        #expect(props[1]["content"] == "1815-12-10")
        #expect(props[2].text?.utf8.count == 1024)
        #expect(props.allSatisfy { $0.inBody })
    }

    @Test func emptyAndGarbageInputDoNotCrash() {
        #expect(scan("").elements.isEmpty)
        var generator = SeededGenerator(seed: SeededGenerator.seed(default: 0x6A5B_A6E0))
        for _ in 0..<20 {
            let garbage = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = scan(garbage)
            _ = scan(garbage, chunk: 7)
        }
        let hostile = Array("<html><head><title>".utf8) + [0, 0xFF, 0xC3] + Array("<meta content='\u{0}'>".utf8)
        _ = scan(hostile, chunk: 1)
    }
}
