import Testing
import Metadata
@testable import Rules

/// Whole article pages, hand-written to mimic the markup news and blog
/// templates use (no page copied), read as the engine reads them: the
/// byte scanner's records, then the rules.
@Suite struct ArticleMarkupPatternTests {
    private func page(head: String = "", _ lead: String) -> String {
        """
        <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page</title>\(head)</head><body>
        <header class="site-header"><nav><a href="/">Home</a> <a href="/world">World</a></nav></header>
        <main><article><h1>Storm hits the coast overnight</h1>\(lead)
        <p>The storm reached the coast late on Monday, bringing heavy rain and strong winds to several towns along the shore, officials said.</p>
        </article></main><footer><p>Acme News</p></footer></body></html>
        """
    }

    /// Text kept for screen readers only (`sr-only`, `visually-hidden`,
    /// `screen-reader-text`) is off the screen: never in the summary or
    /// the byline a card shows.
    @Test func screenReaderOnlyTextIsNeitherSummaryNorAuthor() {
        let html = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Page</title></head><body>
            <main><article><h1>Storm hits the coast overnight</h1>
            <div class="byline"><span class="sr-only">Article written by</span> Jane Doe</div>
            <p><span class="visually-hidden">Listen to this article.</span>The storm reached the coast late on Monday,             bringing heavy rain and strong winds to several towns<span class="screen-reader-text"> (opens in a new window)</span>, officials said.</p>
            </article></main></body></html>
            """
        for chunk in [nil, 9] {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.author == "Jane Doe", "chunk \(chunk ?? 0)")
            #expect(metadata.summary == "The storm reached the coast late on Monday, bringing heavy rain and strong winds to several towns, officials said.",
                    "chunk \(chunk ?? 0)")
        }
    }

    @Test func aJobTitleInItsOwnElementOfTheBylineBoxIsNoAuthor() {
        let html = page("""
            <div class="author-info"><a class="author-name" href="/people/jane">Jane Doe</a>\
            <span class="author-title">Senior Correspondent</span></div>
            """)
        let metadata = extractHTML(html)
        #expect(metadata.authors == ["Jane Doe"])
        #expect(metadata.author == "Jane Doe")
    }

    @Test(arguments: [
        ("By Jane Doe, Washington", ["Jane Doe"]),
        ("By Jane Doe, Reuters", ["Jane Doe"]),
        ("By Jane Doe, John Roe, London", ["Jane Doe", "John Roe"]),
    ])
    func aPlaceOrAgencyAfterTheNameIsNoAuthor(credit: String, names: [String]) {
        #expect(MetadataRules.authorNames(credit) == names)
        #expect(extractHTML(page("<div class=\"byline\">\(credit)</div>")).authors == names)
    }

    @Test func aCatalogueNameAndProseAfterACommaStay() {
        #expect(MetadataRules.authorNames("Lee, Ann") == ["Lee, Ann"])
        #expect(MetadataRules.authorNames("Ann Lee, Bo Kim") == ["Ann Lee", "Bo Kim"])
        // Not a name first: nothing is taken for a place.
        #expect(MetadataRules.authorNames("the author of Books, Papers") == ["the author of Books, Papers"])
    }

    @Test func aSectionBetweenHeadlineAndSiteGoesWhenTheRestIsTheHeadline() {
        let html = page(head: """
            <meta property="og:title" content="Storm hits the coast overnight | World | Acme News">\
            <meta property="og:site_name" content="Acme News">
            """, "")
        let metadata = extractHTML(html)
        #expect(metadata.title == "Storm hits the coast overnight")
        #expect(metadata.rawTitle == "Storm hits the coast overnight | World | Acme News")
    }

    @Test func aSectionStaysWhenTheRestIsNotTheHeadline() {
        let html = page(head: """
            <meta property="og:title" content="Rust 1.80 | Release notes | Acme News">\
            <meta property="og:site_name" content="Acme News">
            """, "")
        #expect(extractHTML(html).title == "Rust 1.80 | Release notes")
    }

    @Test func aParagraphNamedForThePublishedDateGivesIt() {
        let metadata = extractHTML(page("<p class=\"published-date\">March 9, 2021</p><span class=\"ago\">4 months ago</span>"))
        #expect(metadata.publishedTime == "2021-03-09")
        #expect(metadata.sources?["publishedTime"] == "dated element")
    }

    /// A `<time>` with no attribute at all, its date only in its text,
    /// in every chunking (the tag gate must keep a bare `<time>`'s text).
    @Test func aBareTimeInTheArticleGivesTheDate() {
        // No element around it that a rule records: only the `<time>` can keep its text.
        let html = page("<header><span><time>March 9, 2021</time></span></header>")
        for chunk in [nil] + Array(1...40) {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.publishedTime == "2021-03-09", "chunk \(chunk ?? 0)")
            #expect(metadata.sources?["publishedTime"] == "time element", "chunk \(chunk ?? 0)")
        }
    }

    /// A relative time is no date, and a bare `<time>` in a related list
    /// or a comment thread loses to the article's own, wherever it is written.
    @Test func aBareRelativeTimeOrOneInARelatedListIsNotTheArticlesDate() {
        #expect(extractHTML(page("<span><time>4 months ago</time></span>")).publishedTime == nil)
        let related = page("""
            <aside><ul><li><a href="/b">Other story</a> <time>June 1, 2020</time></li></ul></aside>
            <div class="comments"><time>July 2, 2021</time></div>
            <div class="meta"><time>March 9, 2021</time></div>
            """)
        for chunk in [nil, 7, 16] {
            #expect(extractHTML(related, chunk: chunk).publishedTime == "2021-03-09", "chunk \(chunk ?? 0)")
        }
    }

    /// A date only in an element whose class says so, whatever its tag.
    @Test(arguments: [
        #"<div class="date">March 9, 2021</div>"#,
        #"<span class="date">March 9, 2021</span>"#,
        #"<div class="article-date">Tuesday 9 March 2021</div>"#,
        #"<div class="published">March 9, 2021</div>"#,
        #"<li id="post-date-3">9 March 2021</li>"#,
    ])
    func anElementNamedForTheDateGivesIt(markup: String) {
        let html = page(markup + #"<span class="ago">4 months ago</span>"#)
        for chunk in [nil, 5, 16] {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.publishedTime == "2021-03-09", "chunk \(chunk ?? 0)")
            #expect(metadata.sources?["publishedTime"] == "dated element", "chunk \(chunk ?? 0)")
        }
    }

    /// A date label is a word of its own: "Stand:" labels a date,
    /// "Standing …" and "Posters …" start prose.
    @Test func aLabelIsAWholeWord() {
        #expect(extractHTML(page("<p>Standing room only as the storm came ashore on March 9, 2021.</p>")).publishedTime == nil)
        #expect(extractHTML(page("<p>Posters went up in town on March 9, 2021.</p>")).publishedTime == nil)
        let labelled = extractHTML(page("<p>Stand: 09.03.2021, 14:30 Uhr</p>"))
        #expect(labelled.publishedTime == "2021-03-09T14:30:00")
        #expect(labelled.sources?["publishedTime"] == "labelled date")
        #expect(extractHTML(page("<p>Posted on March 9, 2021 by Ann Lee</p>")).publishedTime == "2021-03-09")
    }

    /// hAtom: the date in an `<abbr>`'s title, a short one in its text.
    @Test func anAbbrNamedForTheDateGivesItsTitle() {
        let html = page(#"<abbr class="published" title="2021-03-09T08:15:00+00:00">March 9</abbr>"#)
        for chunk in [nil, 5, 16] {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.publishedTime == "2021-03-09T08:15:00+00:00", "chunk \(chunk ?? 0)")
            #expect(metadata.sources?["publishedTime"] == "dated element", "chunk \(chunk ?? 0)")
        }
        let update = page(#"<abbr class="updated" title="2021-06-01T08:15:00+00:00">June 1</abbr>"#)
        #expect(extractHTML(update).publishedTime == nil)
    }

    @Test func aDivNamedForTheUpdateOrAnotherStorysDateGivesNoDate() {
        #expect(extractHTML(page(#"<div class="updated-date">June 1, 2021</div>"#)).publishedTime == nil)
        let related = page(#"<aside><div class="date">June 1, 2020</div></aside><div class="date">March 9, 2021</div>"#)
        #expect(extractHTML(related).publishedTime == "2021-03-09")
    }

    @Test func anElementNamedForTheUpdateOrHoldingProseGivesNoDate() {
        #expect(extractHTML(page("<p class=\"updated-date\">June 1, 2021</p>")).publishedTime == nil)
        let prose = "<p class=\"date-note\">The storm of March 9, 2021 was the worst in living memory for the towns along the shore.</p>"
        #expect(extractHTML(page(prose)).publishedTime == nil)
    }

    @Test func theVisibleDateOutvotesALaterMetaDateWithJSONLD() {
        let head = """
            <meta property="article:published_time" content="2021-06-01T10:00:00Z">\
            <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",\
            "datePublished":"2021-03-09T08:15:00Z","dateModified":"2021-06-01T10:00:00Z"}</script>
            """
        let metadata = extractHTML(page(head: head, "<p class=\"post-date\">March 9, 2021</p>"))
        #expect(metadata.publishedTime == "2021-03-09T08:15:00Z")
    }

    @Test func aLazyImageIsReadFromWhereTheLoaderKeepsItNotFromItsPlaceholder() {
        let html = page("""
            <figure><img src="/img/placeholder.gif" data-src="/img/lead.jpg" alt="Waves on the shore"></figure>
            """)
        #expect(extractHTML(html).image?.url == "https://example.com/img/lead.jpg")
    }

    /// A lazy image written twice: a visible `<img>` holding a placeholder
    /// (an inline pixel, a grey file) and the real one in the `<noscript>`
    /// right after it. The `<noscript>` one is the lead image.
    @Test(arguments: [
        "<img src=\"data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==\" class=\"lazyload\" width=\"800\" height=\"450\" alt=\"Waves\">",
        "<img src=\"/static/grey.gif\" class=\"js-lazy\" width=\"800\" height=\"450\" alt=\"Waves\">",
        "<img class=\"lazy\" alt=\"Waves\">",
    ])
    func theNoscriptImageStandsForAPlaceholderBeforeIt(visible: String) {
        let html = page("""
            <figure>\(visible)<noscript><img src="/img/lead.jpg" alt="Waves on the shore"></noscript>
            <figcaption>Waves on the shore</figcaption></figure>
            """)
        for chunk in [nil, 7] {
            let image = extractHTML(html, chunk: chunk).image
            #expect(image?.url == "https://example.com/img/lead.jpg", "\(visible)")
        }
    }

    /// A tracking pixel in a `<noscript>` after an image, or an image whose
    /// lazy loader names the real URL, keep the visible image.
    @Test func aNoscriptPixelOrALoadersURLKeepsTheVisibleImage() {
        let pixel = page("""
            <figure><img src="/img/lead.jpg" alt="Waves"><noscript><img src="https://t.example/p?id=3" width="1" height="1"></noscript></figure>
            """)
        #expect(extractHTML(pixel).image?.url == "https://example.com/img/lead.jpg")
        let loader = page("""
            <figure><img src="/static/grey.gif" data-src="/img/lead.jpg" alt="Waves"><noscript><img src="/img/lead-small.jpg"></noscript></figure>
            """)
        #expect(extractHTML(loader).image?.url == "https://example.com/img/lead.jpg")
    }

    @Test func anAuthorsPhotoInTheBylineIsNoLeadImage() {
        let html = page("""
            <div class="byline"><img src="/img/authors/jane-doe.jpg" alt="Jane Doe"> By Jane Doe</div>
            <figure><img src="/img/lead.jpg" alt="Waves on the shore"></figure>
            """)
        #expect(extractHTML(html).image?.url == "https://example.com/img/lead.jpg")
    }

    @Test func anOpenGraphDescriptionThatIsTheWholeArticleLosesToJSONLDs() {
        let article = String(repeating: "The storm reached the coast late on Monday, bringing heavy rain to the towns. ", count: 12)
        let head = """
            <meta property="og:description" content="\(article)">\
            <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle",\
            "description":"A storm hit the coast overnight."}</script>
            """
        let metadata = extractHTML(page(head: head, ""))
        #expect(metadata.summary == "A storm hit the coast overnight.")
        // A short card description stays.
        let card = "<meta property=\"og:description\" content=\"Heavy rain on the coast.\">" + head.dropFirst(head.firstIndex(of: ">").map { head.distance(from: head.startIndex, to: $0) + 1 } ?? 0)
        #expect(extractHTML(page(head: card, "")).summary == "Heavy rain on the coast.")
    }

    @Test func aShortFormOfTheSiteNameLeadingTheHeadlineGoes() {
        let html = page(head: "<meta property=\"og:site_name\" content=\"Acme News\">", "")
            .replacing("<title>Page</title>", with: "<title>Acme · Storm hits the coast overnight</title>")
        #expect(extractHTML(html).title == "Storm hits the coast overnight")
        // Without the headline to prove the rest, a first word is a kicker.
        let kicker = page(head: "<meta property=\"og:site_name\" content=\"Acme News\">", "")
            .replacing("<title>Page</title>", with: "<title>Acme · Storm hits the coast</title>")
        #expect(extractHTML(kicker).title == "Acme · Storm hits the coast")
    }

    @Test(arguments: [
        "Storm hits the coast overnight - Full Text View - Trials Registry",
        "Storm hits the coast overnight | Weather | Acme",
    ])
    func theHeadlineThenSeveralPartsLosesThemAll(title: String) {
        let html = page("").replacing("<title>Page</title>", with: "<title>\(title)</title>")
        let metadata = extractHTML(html)
        #expect(metadata.title == "Storm hits the coast overnight")
        #expect(metadata.rawTitle == title)
    }

    @Test func aLongCardDescriptionLosesToAShortMetaDescription() {
        let article = String(repeating: "The storm reached the coast late on Monday, bringing heavy rain to the towns. ", count: 12)
        let head = """
            <meta property="og:description" content="\(article)"><meta name="description" content="A storm hit the coast overnight.">
            """
        #expect(extractHTML(page(head: head, "")).summary == "A storm hit the coast overnight.")
    }

    @Test func anUpdatedTimeWrittenFirstLosesToThePublishedOne() {
        let html = page("""
            <span class="posted-on"><time class="updated" datetime="2021-06-01T10:00:00+00:00">June 1, 2021</time>\
            <time class="entry-date published" datetime="2021-03-09T08:15:00+00:00">March 9, 2021</time></span>
            """)
        #expect(extractHTML(html).publishedTime == "2021-03-09T08:15:00+00:00")
        // Alone, it is the page's only date.
        let alone = page("<time class=\"updated\" datetime=\"2021-06-01\">June 1, 2021</time>")
        #expect(extractHTML(alone).publishedTime == "2021-06-01")
    }

    @Test(arguments: [("auteur", "Par Jean Dupont, publié le 09/03/2021 à 08h15", "Jean Dupont"),
                      ("autore", "di Mario Rossi", "Mario Rossi"), ("autor", "Por Ana Gómez", "Ana Gómez")])
    func aBylineNamedInTheLanguageOfThePage(marker: String, credit: String, name: String) {
        #expect(extractHTML(page("<p class=\"\(marker)\">\(credit)</p>")).author == name)
        // As a whole word only: `autoresize` holds the letters of "autor".
        #expect(extractHTML(page("<p class=\"\(marker)resize\">\(name)</p>")).author == nil)
    }

    @Test func aLazyImageSetUnderItsOtherNameGivesItsWidestCandidate() {
        let html = page("""
            <figure><img src="/static/ph.png" data-lazy-srcset="/img/lead-400.jpg 400w, /img/lead-1200.jpg 1200w" alt="Waves"></figure>
            """)
        #expect(extractHTML(html).image?.url == "https://example.com/img/lead-1200.jpg")
    }

    @Test func aLazyImageSetGivesItsWidestCandidate() {
        let html = page("""
            <figure><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-srcset="/img/lead-400.jpg 400w, /img/lead-800.jpg 800w, /img/lead-600.jpg 600w" alt="Waves on the shore"></figure>
            """)
        #expect(extractHTML(html).image?.url == "https://example.com/img/lead-800.jpg")
        #expect(MetadataRules.widestCandidate("/c/w_400,h_300/a.jpg 1x, /c/w_800,h_600/a.jpg 2x") == "/c/w_800,h_600/a.jpg")
    }
}
