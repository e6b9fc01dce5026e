import Testing
@testable import HTMLHead

/// libxml2's push parser has had bugs at chunk boundaries (an end tag cut
/// inside `</script`, a comment end cut inside `-->`): every split of these
/// documents must give the same result as parsing them whole.
@Suite struct ChunkBoundaryTests {
    static let documents: [String] = [
        """
        <!DOCTYPE html><html lang="en"><head><!-- a -- comment --><meta charset=utf-8>
        <!--[if lt IE 9]><script src="html5shiv.js"></script><![endif]-->
        <style type="text/css">a > b { content: "</"; }</style>
        <script>if (a < b && c > d) { document.write("<\\/script>") }</script>
        <title>Tom &amp; Jerry &lt;3 &#x1F600; &eacute;</title>
        <meta property="og:description" content="x > y &amp; 'q'">
        <SCRIPT TYPE="application/ld+json">{"a": "</b>", "c": "d"}</SCRIPT>
        <?php echo 1 ?><link rel=icon href=a.ico><!---->
        <meta name="twitter:title" content='single "quoted"'>
        </head><body><svg><title>svg</title></svg><span itemprop=name>N &amp; M</span></body></html>
        """,
        "<head><style>a{}</style><meta name=after-style content=1><script>x</script><meta name=after-script content=2></head>",
        "<title>t</title><!-- <meta name=hidden content=1> --><meta name=visible content=2><!-- --- --><meta name=v2 content=3>",
        "<html><head><noscript><img src=x></noscript><meta property=og:title content=t></head><body>",
    ]

    @Test(arguments: 0..<documents.count)
    func everySplitMatchesTheWhole(_ index: Int) {
        let html = ChunkBoundaryTests.documents[index]
        let whole = scan(html)
        #expect(!whole.elements.isEmpty)
        for chunk in 1...24 {
            let split = scan(html, chunk: chunk)
            #expect(split == whole, "chunk size \(chunk)")
            if split != whole { break }
        }
    }

    @Test func wholeDocumentIsReadCorrectly() {
        let document = scan(ChunkBoundaryTests.documents[0])
        #expect(document.title == "Tom & Jerry <3 \u{1F600} é")
        #expect(document.meta("og:description") == "x > y & 'q'")
        #expect(document.meta("twitter:title") == #"single "quoted""#)
        #expect(document.all("script").map(\.text) == [#"{"a": "</b>", "c": "d"}"#])
        #expect(document.all("link").count == 1)
        #expect(document.elements.last?.text == "N & M")
        let names = scan(ChunkBoundaryTests.documents[2]).all("meta").compactMap { $0["name"] }
        #expect(names == ["visible", "v2"])
    }
}
