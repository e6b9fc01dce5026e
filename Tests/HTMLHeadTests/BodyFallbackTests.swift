import Testing
@testable import HTMLHead

/// Body elements kept as fallbacks: which ones, and that they stay bounded.
/// The words that mark elements are the caller's; these tests give their own.
@Suite struct BodyFallbackTests {
    /// Words written for these tests (LinkPeek passes its rules' own).
    private let words = BodyRecords(markers: ["author", "byline"], linkHrefs: ["/author", "author="],
                                    linkPathEndings: [".mp3", ".mp4"])

    private func fallbacks(_ html: String, chunk: Int? = nil) -> [HTMLElement] {
        scan(html, chunk: chunk, bodyRecords: words).elements.filter(\.isFallback)
    }

    @Test func aTestIDIsMarkedLikeAClass() {
        let kept = fallbacks(#"<body><a data-testid="Author-Link" href="/p/ann">Ann Lee</a><span data-testid="share">x</span>"#)
        #expect(kept.map(\.text) == ["Ann Lee"])
    }

    @Test func elementsWithTheCallersDateAttributesAreKeptAsDated() {
        let words = BodyRecords(dateAttributes: ["data-timestamp", "data-origindate"])
        let html = #"<body><span DATA-TIMESTAMP="1615277700">4 months ago</span><span data-times="1">no</span><div data-origindate="2021-03-09">x</div>"#
        for chunk in [nil, 5] {
            let kept = scan(html, chunk: chunk, bodyRecords: words).elements.filter(\.isFallback)
            #expect(kept.map(\.name) == ["span", "div"])
            #expect(kept.first?["data-timestamp"] == "1615277700")
        }
    }

    @Test func withoutWordsOnlyPlainElementsAreKept() {
        let html = """
            <body><div class="byline">Kim</div><a rel="author" href="/author/kim">Kim</a>
            <a href="/ep.mp3">Listen</a><h1>H</h1><p class="byline">P</p><img src=/i.jpg><time datetime=2024-05-01>May</time>
            """
        let kept = scan(html).elements.filter(\.isFallback)
        #expect(kept.map(\.name) == ["h1", "p", "img", "time"])
    }

    @Test func markersMatchAnyCaseInClassIdOrRelOnly() {
        let kept = fallbacks("<body><span data-x=author>no</span><span class=Post-BYLINE>yes</span><a href=/AUTHOR/x>Ann</a>")
        #expect(kept.map(\.text) == ["yes", "Ann"])
    }

    @Test func playersAndTheirSourcesAreKept() {
        let html = """
            <head><title>t</title></head><body>
            <video poster="/p.jpg" width="640"><source src="/v.mp4" type="video/mp4"><track src="/c.vtt"></video>
            <audio src="/a.mp3"></audio>
            <picture><source srcset="/i.webp"><img src="/i.jpg" alt="A" width="800" height="600"></picture>
            """
        for chunk in [nil, 7] {
            let kept = fallbacks(html, chunk: chunk)
            #expect(kept.map(\.name) == ["video", "source", "track", "audio", "img"])
            #expect(kept[0]["poster"] == "/p.jpg")
            #expect(kept[1]["type"] == "video/mp4")
            #expect(kept[4]["alt"] == "A")
            #expect(kept.allSatisfy { $0.inBody && $0.text == nil })
        }
    }

    @Test func headElementsAreNotFallbacks() {
        let document = scan("<head><meta property=og:title content=x><title>t</title></head><body><h1>H</h1>")
        #expect(document.elements.filter(\.isFallback).map(\.name) == ["h1"])
        #expect(document.elements.filter { !$0.isFallback }.map(\.name) == ["meta", "title"])
    }

    @Test func linksToMediaFilesAndAuthorsKeepTheirText() {
        let kept = fallbacks("""
            <body><a href="/nav">Home</a>
            <a href="https://cdn.example/ep1.MP3?dl=1">Download <b>MP3</b></a>
            <a rel="author" href="/u/jo">Jo Doe</a>
            <a href="/author/ann-lee/">Ann Lee</a>
            <a href="/page.html#x.mp3">not media</a>
            """)
        #expect(kept.map(\.text) == ["Download MP3", "Jo Doe", "Ann Lee"])
    }

    @Test func bylinesByClassIdOrRel() {
        let kept = fallbacks("""
            <body><div class="post-Author"> By <span>Kim Park</span> </div>
            <span id="byline">Lee</span><p class="x">Para</p>
            <div class="byline">Sam<script>var author = 1;</script></div>
            """)
        #expect(kept.map(\.name) == ["div", "span", "p", "div"])
        #expect(kept.map(\.text) == ["By Kim Park", "Lee", "Para", "Sam"])
    }

    @Test func hiddenTextIsLeftOutOfBodyRecordsButNotOutOfMicrodata() {
        let html = """
            <body><p>Lead <span aria-hidden="true">Share this</span>text.</p><p hidden>Hidden paragraph</p>
            <div class="byline">By <span style="display: none">Jane Roe</span>Kim Park</div>
            <div style="display:none"><span itemprop="author">Ann Lee</span></div>
            <a rel="author" href="/people/bo" style="display:none">Bo Kim</a>
            """
        for chunk in [nil, 6] {
            let found = scan(html, chunk: chunk, bodyRecords: words).elements.filter(\.inBody)
            #expect(found.map(\.text) == ["Lead text.", "", "By Kim Park", "Ann Lee", "Bo Kim"])
        }
    }

    @Test func tableRowsAndDescriptionListsAreKeptWithTheirText() {
        let kept = fallbacks("<body><table><tr><th>公開日</th><td>2021年3月9日</td></tr></table><dl><dt>Published</dt><dd>9 March 2021</dd></dl>")
        #expect(kept.map(\.name) == ["tr", "dl"])
        #expect(kept.map(\.text) == ["公開日 2021年3月9日", "Published 9 March 2021"])
    }

    @Test func blockElementsSeparateWords() {
        let kept = fallbacks("<body><div class=author-box><div>Kim Park</div><div>News</div>Ann<br>Lee <b>x</b>y</div>")
        // Inline elements (`<b>`) join their text as written.
        #expect(kept.first?.text == "Kim Park News Ann Lee xy")
    }

    @Test func headingsParagraphsAndTimes() {
        let kept = fallbacks("""
            <body><h1> Big  title </h1><p>First <a href=/x>para</a>.</p>
            <time datetime="2024-05-01">May 1</time><time>no datetime</time>
            """)
        #expect(kept.map(\.name) == ["h1", "p", "time", "time"])
        #expect(kept[1].text == "First para.")
        #expect(kept[2]["datetime"] == "2024-05-01")
        #expect(kept[3].text == "no datetime")
    }

    @Test func nothingInsideSVGOrScripts() {
        let kept = fallbacks("<body><svg><image href=x/><p>in svg</p></svg><script>document.write('<img src=a>')</script>")
        #expect(kept.isEmpty)
    }

    @Test func eachKindIsCapped() {
        let images = String(repeating: "<img src=/a.png>", count: 200)
        let paragraphs = String(repeating: "<p>text</p>", count: 200)
        let headings = String(repeating: "<h1>h</h1>", count: 20)
        let bylines = String(repeating: "<span class=author>a</span>", count: 200)
        let players = String(repeating: "<video src=/v.mp4></video>", count: 100)
        let document = scan("<body>" + images + paragraphs + headings + bylines + players, bodyRecords: words)
        let limits = ElementCollector.FallbackLimits()
        #expect(document.all("img").count == limits.images)
        #expect(document.all("p").count == limits.paragraphs)
        #expect(document.all("h1").count == limits.headings)
        #expect(document.all("span").count == limits.marked)
        #expect(document.all("video").count == limits.players)
    }

    @Test func sourcesOfUnrecordedPlayersAreDropped() {
        let players = String(repeating: "<audio><source src=/a.ogg></audio>", count: 30)
        let document = scan("<body>" + players)
        #expect(document.all("audio").count == 20)
        #expect(document.all("source").count == 20)
    }

    @Test func fallbackTextIsCappedAtOneKibibyte() {
        let long = String(repeating: "é", count: 2000)
        let text = fallbacks("<body><p>\(long)</p>").first?.text ?? ""
        #expect(text.utf8.count <= 1024)
        #expect(text.utf8.count >= 1022)
        #expect(text.allSatisfy { $0 == "é" })
    }
}
