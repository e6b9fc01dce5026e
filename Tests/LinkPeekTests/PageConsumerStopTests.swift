import Curl
import HTMLHead
import Testing
@testable import LinkPeek

/// The live fetch's stop rule: the transfer ends at the head only when the
/// page declared everything the rules could still use; body fallbacks never
/// end the reading early; the body budget counts from the page's own head end;
/// after a head that gave the main fields the body is parsed only once it
/// shows a sign of a missing field.
@Suite struct PageConsumerStopTests {
    /// Feeds `html` in one chunk and tells whether the consumer stopped.
    private func stops(_ html: String, bodyScanBytes: Int = 64 * 1024) -> Bool {
        let consumer = PageConsumer(bodyScanBytes: bodyScanBytes, onEvent: { _ in })
        let decision = Array(html.utf8).withUnsafeBytes { consumer.received($0) }
        if case .stop = decision { return true }
        return false
    }

    private let head = "<html><head><title>T</title><meta name=description content=D></head><body>"
    private let padding = String(repeating: "<div>filler text</div>\n", count: 40)
    /// Every field a preview of a plain page can use: title, summary, image, site name, media.
    private let complete = "<meta property=og:title content=T><meta property=og:description content=D>"
        + "<meta property=og:image content=/og.png><meta property=og:site_name content=Site>"
        + "<meta property=og:video content=/v.mp4>"

    @Test func bodyImageDoesNotStopTheReading() {
        // A declared image may still come in body JSON-LD; an <img> must not end the read.
        #expect(!stops(head + "<h1>H</h1><img src=/photo.jpg width=800 height=600><p>Some paragraph text here.</p>" + padding))
    }

    @Test func aPageWithoutAuthorAndDateReadsOn() {
        #expect(!stops("<html><head>" + complete + "</head><body>" + padding))
    }

    /// Feeds `chunks` one by one, as curl would: whether the consumer
    /// stopped, after how many chunks, and the document it ends with.
    private func feed(_ chunks: [String], bodyScanBytes: Int) -> (stoppedAfter: Int?, document: HeadDocument?) {
        let consumer = PageConsumer(bodyScanBytes: bodyScanBytes, onEvent: { _ in })
        for (index, chunk) in chunks.enumerated() {
            let decision = Array(chunk.utf8).withUnsafeBytes { consumer.received($0) }
            if case .stop = decision { return (index + 1, consumer.finish().document) }
        }
        return (nil, consumer.finish().document)
    }

    /// A page that is no article, with its main fields in the head and a
    /// script that makes the head longer than the sniffing buffer.
    private let plainHead = "<html><head><title>T</title><meta name=description content=D>"
        + "<meta property=og:image content=/og.png><script>var s = \"" + String(repeating: "s", count: 600)
        + "\";</script></head><body>"
    private let filler = String(repeating: "<p>lorem ipsum dolor sit amet</p>\n", count: 10)
    /// `plainHead` with an author and a date: its body is searched only
    /// within the evidence window, never past the budget.
    private var datedHead: String {
        "<html><head><meta name=author content=\"Ann Lee\"><meta name=date content=2024-05-01>"
            + plainHead.dropFirst("<html><head>".count)
    }

    @Test func mainFieldsDoNotStopAPageThatIsNoArticleBeforeItsBudget() {
        // Its byline may still come in the body; with no sign of one the body is
        // read to the budget, unparsed once the parser has reported the head's end:
        // libxml2 reports it while parsing the first body chunk, whose bytes are
        // then not counted (the head completed within their slice); the next three
        // chunks are held and reach the budget. Their headings are never recorded.
        let chunks = [datedHead] + (1...8).map { "<h1>Heading \($0)</h1>" + filler }
        let (stoppedAfter, document) = feed(chunks, bodyScanBytes: 1024)
        #expect(stoppedAfter == 5)
        #expect(document?.elements.contains { $0.name == "h1" && $0.text == "Heading 3" } == false)
    }

    @Test func noSignWithinTheEvidenceWindowEndsTheReadBeforeTheBudget() {
        // 40 chunks of about 356 bytes: 14 KiB, then a byline past the 16 KiB window.
        let chunk = "<h1>Heading</h1>" + filler
        let window = PageConsumer.evidenceWindowBytes
        let chunks = [datedHead] + Array(repeating: chunk, count: 2 * window / chunk.utf8.count)
            + ["<span class=byline>Ann Lee</span>"]
        let (stoppedAfter, document) = feed(chunks, bodyScanBytes: 64 * 1024)
        let chunksInWindow = window / chunk.utf8.count
        #expect(stoppedAfter.map { $0 <= chunksInWindow + 3 } == true)
        #expect(document?.elements.contains { $0.text == "Ann Lee" } == false)
    }

    @Test func aSignInTheChunkThatEndedTheHeadCounts() {
        // The head and a player arrive in one chunk: that chunk was parsed before
        // the holding began, and its sign still keeps the reading on past the window.
        let chunk = "<h1>Heading</h1>" + filler
        let fillers = Array(repeating: chunk, count: 2 * PageConsumer.evidenceWindowBytes / chunk.utf8.count)
        let chunks = [plainHead + "<audio controls src=/e.mp3></audio>"] + fillers + ["<span class=byline>Ann Lee</span>"]
        let (stoppedAfter, document) = feed(chunks, bodyScanBytes: 64 * 1024)
        #expect(stoppedAfter == nil)
        #expect(document?.elements.contains { $0.text == "Ann Lee" } == true)
    }

    @Test func aSignCutByTheChunkThatEndedTheHeadCounts() {
        // Body JSON-LD starts in the chunk that ended the head and ends in the
        // next one: its start, parsed before the holding began, keeps the reading on.
        let chunk = "<h1>Heading</h1>" + filler
        let fillers = Array(repeating: chunk, count: 2 * PageConsumer.evidenceWindowBytes / chunk.utf8.count)
        let chunks = [plainHead + filler + #"<script type="application/ld+json">{"@type":"WebPage","author":{"name":"Ann"#,
                      #" Lee"}}</script>"#] + fillers
        let (stoppedAfter, document) = feed(chunks, bodyScanBytes: 64 * 1024)
        #expect(stoppedAfter == nil)
        #expect(document?.elements.contains { $0.name == "script" && $0.text?.contains("Ann Lee") == true } == true)
    }

    @Test func heldBytesAreBoundedWhenThePagesHeadEndNeverComes() {
        // A stray <img> starts the parser's body; the page's own </head> never
        // comes, so the body budget would wait 512 KiB: the held bytes stop at the window.
        let head = "<html><head><title>T</title><meta name=description content=D><meta property=og:image content=/og.png>"
            + "<meta name=author content=Ann><meta name=date content=2024-05-01><img src=/pixel.gif width=1 height=1>" + String(repeating: "<meta name=x content=y>", count: 30)
        let chunk = "<script>var s = \"" + String(repeating: "s", count: 1000) + "\";</script>\n"
        let chunks = [head] + Array(repeating: chunk, count: 4 * PageConsumer.evidenceWindowBytes / chunk.utf8.count)
        let (stoppedAfter, _) = feed(chunks, bodyScanBytes: 64 * 1024)
        let chunksInWindow = PageConsumer.evidenceWindowBytes / chunk.utf8.count
        #expect(stoppedAfter.map { $0 <= chunksInWindow + 3 } == true)
    }

    @Test func aBylineInTheBodyIsParsedAfterAHeadWithTheMainFields() {
        let byline = "<span class=\"Author-name\">Ann Lee</span>"
        let chunks = [plainHead, filler, filler + byline, filler, filler]
        let (stoppedAfter, document) = feed(chunks, bodyScanBytes: 64 * 1024)
        #expect(stoppedAfter == nil)
        #expect(document?.elements.contains { $0.text == "Ann Lee" } == true)
    }

    @Test func aSignSplitAcrossChunksIsFound() {
        let chunks = [plainHead, filler + "<span itemp", "rop=author>Ann Lee</span>" + filler]
        let (_, document) = feed(chunks, bodyScanBytes: 64 * 1024)
        #expect(document?.elements.contains { $0.text == "Ann Lee" } == true)
    }

    @Test func aPageThatDeclaresEverythingStopsAtItsHead() {
        let everything = "<html><head>" + complete + "<meta name=author content=Ann>"
            + "<meta property=article:published_time content=2024-05-01></head><body>"
        #expect(stops(everything + padding))
    }

    @Test func anArticleWaitsForItsSiteNameAndMedia() {
        let withoutSite = "<html><head><title>T</title><meta name=description content=D><meta property=og:image content=/og.png>"
            + "<meta property=og:type content=article><meta name=author content=Ann>"
            + "<meta property=article:published_time content=2024-05-01></head><body>"
        #expect(!stops(withoutSite + padding))
    }

    @Test func articleWaitsForAuthorAndDate() {
        let article = "<html><head>" + complete + "<meta property=og:type content=article></head><body>"
        #expect(!stops(article + padding))
        let dated = "<html><head>" + complete + "<meta property=og:type content=article>"
            + "<meta name=author content=\"Ann Lee\"><meta property=article:published_time content=2024-05-01></head><body>"
        #expect(stops(dated + padding))
    }

    @Test func articleTypeLateInTheHeadStillCounts() {
        // The main fields come first; og:type article after them still asks for a byline.
        let article = "<html><head>" + complete + "<meta name=x content=y><meta property=og:type content=article></head><body>"
        #expect(!stops(article + padding))
    }

    @Test func authorAsAURLDoesNotCount() {
        let article = "<html><head>" + complete + "<meta property=article:author content=https://example.com/ann>"
            + "<meta property=article:published_time content=2024-05-01></head><body>"
        #expect(!stops(article + padding))
    }

    @Test func jsonLDArticleWithAuthorAndDateCounts() {
        let script = #"<script type="application/ld+json">{"@type":"NewsArticle","author":{"name":"Ann"},"datePublished":"2024-05-01"}</script>"#
        #expect(stops("<html><head>" + complete + script + "</head><body>" + padding))
        let undated = #"<script type="application/ld+json">{"@type":"NewsArticle","author":{"name":"Ann"}}</script>"#
        #expect(!stops("<html><head>" + complete + undated + "</head><body>" + padding))
    }

    @Test func bodyBudgetStopsAPageThatDeclaresLittle() {
        let body = String(repeating: "<p>filler text for the budget</p>\n", count: 200)
        #expect(stops(head + body, bodyScanBytes: 1024))
        #expect(!stops(head + "<p>short</p>", bodyScanBytes: 1024))
    }

    @Test func strayBodyElementInTheHeadDoesNotStartTheBudget() {
        // A tracking <img> makes the parser start the body; the head's tags go on
        // for longer than the budget, and the budget counts from the page's </head>.
        let script = "<script>var x = \"" + String(repeating: "a", count: 8 * 1024) + "\";</script>"
        let html = "<html><head><img src=/pixel.gif width=1 height=1>" + script
            + "<meta property=og:title content=T></head><body>" + padding
        #expect(!stops(html, bodyScanBytes: 4 * 1024))
    }

    /// Chunks of about 1 KiB with no sign of a byline or date.
    private let kibibyte = String(repeating: "<p>lorem ipsum dolor sit amet</p>\n", count: 30)

    @Test func aPageWithoutBylineOrDateIsSearchedPastTheBudget() {
        // Budget 4 KiB, search 8 KiB: a byline 6 KiB into the body is parsed
        // (with what was held before it) and 8 KiB after it, then the reading
        // ends: the search's end has passed.
        let chunks = [plainHead] + Array(repeating: kibibyte, count: 6) + ["<span class=byline>Ann Lee</span>" + kibibyte]
            + (1...16).map { "<h1>Late \($0)</h1>" + kibibyte }
        let (stoppedAfter, document) = feed(chunks, bodyScanBytes: 4 * 1024)
        #expect(document?.elements.contains { $0.text == "Ann Lee" } == true)
        #expect(stoppedAfter.map { $0 < chunks.count } == true)
    }

    @Test func theSearchPastTheBudgetEndsAtTwiceTheBudgetAndParsesNothingWithoutASign() {
        let chunks = [plainHead] + (1...24).map { "<h1>Heading \($0)</h1>" + kibibyte }
        let (stoppedAfter, document) = feed(chunks, bodyScanBytes: 4 * 1024)
        // 8 KiB of body in chunks of 1 KiB, plus the chunk libxml2 ended the head in.
        #expect(stoppedAfter.map { $0 <= 11 } == true)
        #expect(document?.elements.contains { $0.name == "h1" && $0.text == "Heading 7" } == false)
    }

    @Test func aPageWithBylineAndDateStopsAtItsBudget() {
        // No image: the main fields are missing, so the body is parsed to the
        // budget; author and date were declared, so nothing is searched past it.
        let head = "<html><head><title>T</title><meta name=description content=D>"
            + "<meta name=author content=Ann><meta name=date content=2024-05-01></head><body>"
        let chunks = [head] + Array(repeating: kibibyte, count: 12) + ["<span class=byline>Bob Roe</span>"]
        let (stoppedAfter, document) = feed(chunks, bodyScanBytes: 4 * 1024)
        #expect(stoppedAfter.map { $0 <= 7 } == true)
        #expect(document?.elements.contains { $0.text == "Bob Roe" } == false)
    }

    /// An article's head with the main fields, author and date, and a charset
    /// (so that the parser starts at once), but no site name or player.
    private let cardHead = "<html><head><meta charset=utf-8><title>T</title><meta name=description content=D>"
        + "<meta property=og:image content=/og.png><meta property=og:type content=article>"
        + "<meta name=author content=\"Ann Lee\"><meta property=article:published_time content=2024-05-01></head><body>"

    @Test func anArticleThatAnswersTheCardHoldsItsBodyUnparsed() {
        // Only a player could still be added: the body is held and searched
        // for one, to the budget, and parsed only once one shows.
        let chunks = [cardHead] + (1...8).map { "<h1>Heading \($0)</h1>" + filler }
        let (stoppedAfter, document) = feed(chunks, bodyScanBytes: 64 * 1024)
        #expect(stoppedAfter == nil)
        #expect(document?.elements.contains { $0.name == "h1" } == false)
        let kib = String(repeating: "<p>lorem ipsum dolor sit amet</p>\n", count: 30)
        let player = [cardHead] + Array(repeating: kib, count: 40) + ["<video src=/v.mp4 poster=/p.jpg></video>" + kib]
        let (_, played) = feed(player, bodyScanBytes: 64 * 1024)
        #expect(played?.elements.contains { $0.name == "video" } == true)
    }

    @Test func theChunkThatEndsTheHeadIsParsedOnlyToItsEnd() {
        // A head that declares everything ends the reading before libxml2
        // sees the body that came in the same chunk.
        let everything = "<html><head><meta charset=utf-8>" + complete + "<meta name=author content=Ann>"
            + "<meta property=article:published_time content=2024-05-01></head><body><h1>Late</h1>" + padding
        let (stoppedAfter, document) = feed([everything], bodyScanBytes: 64 * 1024)
        #expect(stoppedAfter == 1)
        #expect(document?.elements.contains { $0.name == "h1" } == false)
    }
}
