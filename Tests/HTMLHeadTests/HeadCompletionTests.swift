import Testing
@testable import HTMLHead

@Suite struct HeadCompletionTests {
    /// Feeds `html` and reports whether the head was complete after it.
    private func completes(_ html: String) -> Bool {
        let scanner = HeadScanner(contentType: "text/html; charset=utf-8")
        scanner.feed(Array(html.utf8))
        return scanner.headComplete
    }

    @Test func explicitEndOfHead() {
        #expect(!completes("<html><head><title>t</title><meta name=a content=b>"))
        #expect(completes("<html><head><title>t</title></head>"))
    }

    @Test func bodyStartsTheBody() {
        #expect(completes("<html><head><title>t</title><body>"))
        #expect(completes("<title>t</title><BODY class=x>"))
    }

    @Test func impliedBody() {
        #expect(completes("<html><head><title>t</title><div>content"))
        #expect(completes("<meta charset=utf-8><p>para"))
        #expect(completes("<title>t</title>Some text right away<br"))
    }

    @Test func metaAfterBodyIsFlagged() {
        let document = scan("""
            <html><head><meta name=early content=1></head>
            <body><div><meta property="og:image" content="/late.png"><title>Body title</title></div></body></html>
            """)
        #expect(document.elements.map(\.inBody) == [false, true, true])
        #expect(document.meta("og:image") == "/late.png")
    }

    @Test func countsBytesAfterHead() {
        let scanner = HeadScanner(contentType: "text/html; charset=utf-8")
        scanner.feed(Array("<html><head><title>t</title></head><body>".utf8))
        #expect(scanner.headComplete)
        #expect(scanner.bytesAfterHead == 0)
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 10_000)
        scanner.feed(body)
        scanner.feed(body)
        #expect(scanner.bytesAfterHead == 20_000)
    }

    @Test func partialDocumentMidStream() {
        let scanner = HeadScanner(contentType: nil)
        scanner.feed(Array("<html><head><meta charset=utf-8><title>Partial ti".utf8))
        // Until 1,024 bytes arrive or a declaration settles it, nothing is
        // parsed; the meta charset settled it here.
        #expect(scanner.document.encoding == "UTF-8")
        #expect(scanner.document.elements.first?.name == "meta")
        scanner.feed(Array("tle</title>".utf8))
        #expect(scanner.document.title == "Partial title")
        #expect(!scanner.headComplete)
        let final = scanner.finish()
        #expect(final.title == "Partial title")
        #expect(scanner.finish() == final)
        scanner.feed(Array("<meta name=after content=finish>".utf8))
        #expect(scanner.document == final)
    }

    @Test func byteAtATimeMatchesWholeDocument() {
        let html = """
            <!doctype html><html lang=ja><head><meta charset="utf-8">
            <title>日本語 &amp; English — \u{1F600}</title>
            <meta property="og:title" content="Ünïcödé &quot;quoted&quot;">
            <meta name=twitter:card content=summary_large_image>
            <link rel="apple-touch-icon" sizes="180x180" href="/apple.png">
            <script type="application/ld+json">{"name": "x</y", "list": [1, 2]}</script>
            <!-- <meta name=commented content=out> -->
            <style>body { background: url("<meta>") }</style>
            </head><body><article itemscope><h1 itemprop="headline"> Headline  </h1>
            <meta itemprop="datePublished" content="2024-01-01"></article>
            \(String(repeating: "<p>filler paragraph</p>\n", count: 300))
            </body></html>
            """
        let whole = scan(html)
        #expect(whole.elements.filter { !$0.isFallback }.count == 8)
        // The first ten paragraphs are kept as fallbacks, the rest dropped.
        #expect(whole.elements.filter(\.isFallback).map(\.name) == Array(repeating: "p", count: 10))
        #expect(whole.title == "日本語 & English — \u{1F600}")
        #expect(whole.all("script").first?.text == #"{"name": "x</y", "list": [1, 2]}"#)
        for chunk in [1, 2, 5, 64, 1000] {
            #expect(scan(html, chunk: chunk) == whole, "chunk \(chunk)")
        }
    }
}
