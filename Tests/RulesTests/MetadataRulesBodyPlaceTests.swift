import Foundation
import HTMLHead
import Testing
import Metadata
@testable import Rules

/// Runs the scanner, with the rules' own `bodyRecords`, and then the rules
/// over `html`, fed whole and in 5-byte chunks; the two must agree.
private func extractPage(_ html: String) -> LinkMetadata {
    var results: [LinkMetadata] = []
    for chunk in [Int.max, 5] {
        let bytes = Array(html.utf8)
        let scanner = HeadScanner(contentType: "text/html; charset=utf-8", bodyRecords: MetadataRules.bodyRecords)
        var offset = 0
        while offset < bytes.count {
            let end = offset + min(chunk, bytes.count - offset)
            scanner.feed(Array(bytes[offset..<end]))
            offset = end
        }
        results.append(MetadataRules.extract(from: scanner.finish(), pageURL: pageURL))
    }
    #expect(results[0] == results[1])
    return results[0]
}

/// Bylines, dates and summaries by where they sit (`BodyPlace`): the lead
/// article's header, the article, elsewhere, then navigation, asides, forms
/// and the page footer. The pages are written for these tests.
@Suite struct MetadataRulesBodyPlaceTests {
    private let head = "<!doctype html><html><head><title>Tram line</title></head><body>"
    private let prose = "The council voted on Tuesday to extend the tram line to the harbour, a plan first proposed in 1998."
    private let related = """
        <aside class="related"><h2>Related</h2><ul>
        <li><a href="/news/a">Bridge reopens</a> <a rel="author" href="/people/bob">Bob Stone</a> <time datetime="2019-01-01">1 Jan</time></li>
        <li><a href="/news/b">Bus fares</a> <span class="byline">By Carol Reed</span> <time datetime="2019-02-02">2 Feb</time></li>
        </ul></aside>
        """

    /// A related-articles list first, with other authors and dates (and a
    /// stronger kind of byline, `rel=author`): the article's header wins.
    @Test func theArticleHeaderWinsOverARelatedListBeforeIt() {
        let page = extractPage(head + related + """
            <article><header><h1>Tram line</h1><span class="byline">By Ann Lee</span>
            <time datetime="2024-05-03T10:00:00+02:00">3 May</time></header><p>\(prose)</p></article>
            <footer><time datetime="2025-12-31">Updated</time></footer>
            """)
        #expect(page.author == "Ann Lee")
        #expect(page.sources?["author"] == "byline")
        #expect(page.publishedTime == "2024-05-03T10:00:00+02:00")
        #expect(page.sources?["publishedTime"] == "time element")
    }

    /// The same list written as `<div>`s, known only by its class, and a
    /// comment thread by its id: the story's byline and date win, though
    /// the page has no `<article>` to say where the story is.
    @Test func aRelatedListMarkedOnlyByItsClassIsChrome() {
        let divs = related.replacingOccurrences(of: "<aside class=\"related\">", with: "<div class=\"c-related-posts\">")
            .replacingOccurrences(of: "</aside>", with: "</div>")
        let page = extractPage(head + divs + """
            <div class="story"><h1>Tram line</h1><span class="byline">By Ann Lee</span>
            <time datetime="2024-05-03T10:00:00+02:00">3 May</time><p>\(prose)</p></div>
            <div id="comments"><p>A reply that is long enough to be taken for a paragraph of prose, by its length.</p>
            <span class="comment-author">Dan</span></div>
            """)
        #expect(page.author == "Ann Lee")
        #expect(page.publishedTime == "2024-05-03T10:00:00+02:00")
        #expect(page.summary == prose)
        // Without the story's own, the list's are still the last resort.
        let onlyList = extractPage(head + divs)
        #expect(onlyList.author == "Bob Stone")
    }

    /// A `<time>` in the page footer loses to a date in the article's byline text.
    @Test func aDatelineInTheArticleBeatsAFooterTime() {
        let page = extractPage(head + """
            <article><h1>Tram line</h1><div class="byline">By Ann Lee · May 3, 2016</div><p>\(prose)</p></article>
            <footer><p>© City News</p><time datetime="2025-12-31">Last updated</time></footer>
            """)
        #expect(page.publishedTime == "2016-05-03")
        #expect(page.sources?["publishedTime"] == "dateline")
    }

    /// A `<time>` without `datetime` gives the date its text shows; one
    /// whose text holds no year gives none.
    @Test func aTimeElementsTextIsReadAsADate() {
        let page = extractPage(head + """
            <article><header><time class="ago">3 hours ago</time><time class="published">May 3, 2016 2:58 pm</time>
            </header><p>\(prose)</p></article>
            """)
        #expect(page.publishedTime == "2016-05-03T14:58:00")
        #expect(page.sources?["publishedTime"] == "time element")
        #expect(extractPage(head + "<article><time class=ago>3 hours ago</time></article>").publishedTime == nil)
    }

    /// Without anything better, what the chrome shows is still used.
    @Test func theChromeIsTheLastResort() {
        let page = extractPage(head + "<p>\(prose)</p><footer><span class=author>Dana Hill</span><time datetime=2020-06-01>June</time></footer>")
        #expect(page.author == "Dana Hill")
        #expect(page.publishedTime == "2020-06-01")
    }

    /// A byline in the lead article beats one before it outside any
    /// landmark; on a page without `<article>`, `<main>` is the lead.
    @Test func theLeadWinsOverAnEarlierBylineElsewhere() {
        let byArticle = extractPage(head + """
            <div class="promo"><span class="author">Pat Promo</span></div>
            <article><p>\(prose)</p><p class="byline">By Ann Lee</p></article>
            """)
        #expect(byArticle.author == "Ann Lee")
        let byMain = extractPage(head + """
            <div class="promo"><span class="author">Pat Promo</span></div>
            <main><p class="byline">By Ann Lee</p><p>\(prose)</p></main>
            """)
        #expect(byMain.author == "Ann Lee")
    }

    /// Teasers written as `<article>`s in a related list before the story
    /// do not make the story's own byline any less the lead's.
    @Test func teaserArticlesInAnAsideAreNotTheLead() {
        let page = extractPage(head + """
            <aside><article><a href="/news/a">Bridge reopens</a></article></aside>
            <div class="promo"><span class="author">Pat Promo</span></div>
            <article><p>\(prose)</p><p class="byline">Ann Lee</p></article>
            """)
        #expect(page.author == "Ann Lee")
    }

    /// A comment is an article nested in the story: its author and date are
    /// not the story's, even when they come first.
    @Test func aNestedArticleIsNotTheLead() {
        let page = extractPage(head + """
            <article><h1>Tram line</h1><section class="replies"><article><span class="author">Zed Commenter</span>
            <time datetime="2024-06-01">June</time></article></section>
            <p>\(prose)</p><p class="byline">Ann Lee</p><time datetime="2024-05-03">3 May</time></article>
            """)
        #expect(page.author == "Ann Lee")
        #expect(page.publishedTime == "2024-05-03")
    }

    /// Paragraphs in navigation, an aside, a form or a footer are no summary,
    /// however long; the lead article's first paragraph is.
    @Test func theSummarySkipsNavigationAsidesAndFooters() {
        let long = "Home, World, Politics, Business, Technology, Science, Health, Sports, Style, Travel and all other sections"
        let page = extractPage(head + """
            <nav><p>\(long)</p></nav><div role="complementary"><p>\(long) again</p></div>
            <form><p>\(long) in a form</p></form>
            <div class="intro"><p>A site blurb that is long enough to be taken for prose by its length alone, sadly.</p></div>
            <main><article><p>\(prose)</p></article></main><footer><p>\(long) in the footer</p></footer>
            """)
        #expect(page.summary == prose)
        #expect(page.sources?["summary"] == "first paragraph")
        let consent = "We and our partners use the information on this device to show you the articles you read most."
        let dialog = extractPage(head + "<div role=dialog aria-label=Privacy><p>\(consent)</p></div><p>\(prose)</p>")
        #expect(dialog.summary == prose)
        let onlyChrome = extractPage(head + "<nav><p>\(long)</p></nav><footer><p>\(long)</p></footer>")
        #expect(onlyChrome.summary == nil)
    }

    /// A related list of twelve dated, signed items before the article:
    /// the scanner counts them apart, so the article's own are still recorded.
    @Test func aLongRelatedListDoesNotCrowdOutTheArticle() {
        let items = (1...12).map { index in
            "<li><a rel=author href=/people/p\(index)>Person \(index)</a><time datetime=2019-01-\(10 + index)>x</time>"
                + "<p>Related story number \(index), a paragraph long enough to be prose if it were not in an aside.</p></li>"
        }.joined()
        let page = extractPage(head + "<aside><ul>\(items)</ul></aside>" + """
            <article><header><span class="byline">By Ann Lee</span><time datetime="2024-05-03">3 May</time></header>
            <p>\(prose)</p></article>
            """)
        #expect(page.author == "Ann Lee")
        #expect(page.publishedTime == "2024-05-03")
        #expect(page.summary == prose)
    }

    /// Microdata is ranked by place too: teasers marked up in a related list
    /// before the article (their own headline, author and date) lose to the
    /// article's; with only the teasers' there, theirs are used.
    @Test func microdataInTheArticleBeatsATeasersBeforeIt() {
        let teaser = """
            <aside><div itemscope itemtype="https://schema.org/NewsArticle"><h3 itemprop="headline">Bridge reopens</h3>
            <span itemprop="author">Bob Stone</span><meta itemprop="datePublished" content="2019-01-01"></div></aside>
            """
        let article = """
            <article itemscope itemtype="https://schema.org/NewsArticle"><header><h1 itemprop="headline">Tram line to the harbour</h1>
            <span itemprop="author">Ann Lee</span><meta itemprop="datePublished" content="2024-05-03"></header>
            <p>\(prose)</p></article>
            """
        let bare = "<!doctype html><html><head></head><body>"
        let page = extractPage(bare + teaser + article)
        #expect(page.title == "Tram line to the harbour")
        #expect(page.sources?["title"] == "microdata:headline")
        #expect(page.author == "Ann Lee")
        #expect(page.sources?["author"] == "microdata:author")
        #expect(page.publishedTime == "2024-05-03")
        #expect(page.sources?["publishedTime"] == "microdata:datepublished")
        let onlyTeaser = extractPage(bare + teaser + "<p>\(prose)</p>")
        #expect(onlyTeaser.title == "Bridge reopens")
        #expect(onlyTeaser.author == "Bob Stone")
        #expect(onlyTeaser.publishedTime == "2019-01-01")
    }

    /// A property declared in the head speaks for the page: it wins over
    /// the article's own markup further down.
    @Test func microdataInTheHeadComesFirst() {
        let page = extractPage("""
            <!doctype html><html><head><meta itemprop="datePublished" content="2024-05-01"></head><body>
            <article><header><meta itemprop="datePublished" content="2024-05-03"></header><p>\(prose)</p></article>
            """)
        #expect(page.publishedTime == "2024-05-01")
    }
}
