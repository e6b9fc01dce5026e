import Curl
import Testing
@testable import LinkPeek

/// The live fetch's stop rule: the transfer ends at the head only when the
/// page declared everything the rules could still use; body fallbacks never
/// end the reading early; the body budget counts from the page's own head end.
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

    @Test func everyDeclaredFieldStopsTheReading() {
        #expect(stops("<html><head>" + complete + "</head><body>" + padding))
    }

    @Test func mainFieldsStopAPageThatIsNoArticle() {
        let declared = "<html><head><title>T</title><meta name=description content=D>"
            + "<meta property=og:image content=/og.png></head><body>"
        #expect(stops(declared + padding))
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
}
