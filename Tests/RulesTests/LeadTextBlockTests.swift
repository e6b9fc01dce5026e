import Testing
@testable import Rules

/// A lead written straight inside a `<div>`, its lines parted by `<br>`s
/// and no `<p>`: the summary when the page declares none. Scanned from HTML
/// as the engine does, in whole and in small chunks (the tag gate drops body
/// text between chunks).
@Suite struct LeadTextBlockTests {
    private let lead = "The harbour bridge reopened to traffic on Monday morning after two years of repairs, city officials said."
    private let second = "Commuters lined up before dawn to be among the first to cross."

    private func page(_ body: String) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>Harbour bridge reopens</title></head>
        <body>\(body)</body></html>
        """
    }

    @Test func aLeadInADivWithLineBreaksIsTheSummary() {
        let html = page("""
            <div class="masthead"><div><a href="/">Home</a> <a href="/news">News</a></div></div>
            <div class="story"><h1>Harbour bridge reopens</h1>
            <div class="story-text">
              \(lead)<br><br>
              \(second)<br>
            </div></div>
            """)
        for chunk in [nil, 16, 5] {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.summary == lead + " " + second, "chunk \(chunk ?? 0)")
            #expect(metadata.sources?["summary"] == "text block")
        }
    }

    @Test func aBareDivIsReadAndItsInlineChildrenKeptItsChildBlocksSkipped() {
        let html = page("""
            <div><div>
            <b>HARBOUR CITY</b> — \(lead)<br>
            <div><span>Share</span></div>
            \(second)
            </div></div>
            """)
        for chunk in [nil, 16, 5] {
            #expect(extractHTML(html, chunk: chunk).summary == "HARBOUR CITY — " + lead + " " + second, "chunk \(chunk ?? 0)")
        }
    }

    @Test func aParagraphWinsOverATextBlock() {
        let paragraph = "A paragraph of the article that is long enough to be read as its summary by any reader of it."
        let html = page("<div>\(lead)<br>\(second)</div><p>\(paragraph)</p>")
        #expect(extractHTML(html).summary == paragraph)
    }

    /// A hidden child block before the lines (a "listen to this article"
    /// widget, a screen-reader note) is no wrapper: the lines after it are
    /// the lead, and its own text stays out.
    @Test(arguments: ["aria-hidden=\"true\"", "hidden", "style=\"display: none\""])
    func aHiddenFirstChildDoesNotMakeTheDivAWrapper(hiding: String) {
        let html = page("""
            <div class="story"><div \(hiding)><div>Listen to this article</div><span>4 min</span></div>
            \(lead)<br><br>\(second)</div>
            """)
        for chunk in [nil, 16, 5] {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.summary == lead + " " + second, "\(hiding), chunk \(chunk ?? 0)")
            #expect(metadata.sources?["summary"] == "text block")
        }
    }

    /// A visible first child block still makes a wrapper.
    @Test func aVisibleFirstChildBlockStillMakesAWrapper() {
        let html = page("<div><div>Menu</div>\(lead)<br><br>\(second)</div>")
        #expect(extractHTML(html).summary == nil)
    }

    /// Lines written straight in the `<div>`, then a `<p>` inside the same
    /// `<div>`: the lines come first, and are the lead; a short one as
    /// well as a lead past the block's byte limit.
    @Test func theLinesBeforeAParagraphInTheSameDivAreTheLead() {
        let paragraph = "A paragraph of the article that is long enough to be read as its summary by any reader of it."
        let html = page("<div class=\"story\">\(lead)<br><br>\(second)<p>\(paragraph)</p><p>\(paragraph)</p></div>")
        let long = String(repeating: lead + "<br>", count: 12)
        let longHTML = page("<div class=\"story\">\(long)<br><br>\(second)<p>\(paragraph)</p></div>")
        for chunk in [nil, 16, 5] {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.summary == lead + " " + second, "chunk \(chunk ?? 0)")
            #expect(metadata.sources?["summary"] == "text block")
            let longMetadata = extractHTML(longHTML, chunk: chunk)
            #expect(longMetadata.sources?["summary"] == "text block", "chunk \(chunk ?? 0)")
            #expect(longMetadata.summary?.hasPrefix(lead) == true)
        }
        // A paragraph after the `<div>` ends still wins over it (above).
    }

    @Test func navigationWrittenAsShortLinesIsNoSummary() {
        let html = page("""
            <div>Home<br>World news<br>Business<br>Technology<br>Science and health<br>Sport<br>Culture<br>
            Travel and food<br>Weather<br>Contact the newsroom</div>
            """)
        #expect(extractHTML(html).summary == nil)
    }

    @Test func hiddenTextAndDivsWithoutALineBreakAreNoSummary() {
        let hidden = page("""
            <div style="display: none">\(lead)<br>\(second)</div>
            <div hidden>\(lead)<br>\(second)</div>
            """)
        #expect(extractHTML(hidden).summary == nil)
        #expect(extractHTML(page("<div>\(lead) \(second)</div>")).summary == nil)
        // Text inside the page's navigation is no lead either.
        #expect(extractHTML(page("<nav><div>\(lead)<br>\(second)</div></nav>")).summary == nil)
    }
}
