import Testing
@testable import Rules

/// Labelled text in elements that name nothing (hashed class names, bare
/// `<div>`s): "Published: <date>", "Updated: … UTC", 公開 …, and a bare
/// "By <span>Name</span>" byline. Scanned from HTML as the engine does.
@Suite struct LabelRunTests {
    private func page(_ body: String) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>Tram lines to double by 2030</title></head>
        <body><div class="sc-a81f3"><h1 class="sc-b2c9d">Tram lines to double by 2030</h1>\(body)</div>
        <div class="sc-f00d1"><p>The city council voted on Tuesday to double the length of its tram network by 2030, adding four lines.</p></div>
        </body></html>
        """
    }

    @Test func aLabelledDateInAPlainSpanBesideRelativeTimes() {
        let html = page("""
            <div class="sc-d41e7"><span class="sc-77e1a">4 months ago</span>
            <span class="sc-0c2f4">Published: March 9, 2021</span>
            <span class="sc-0c2f5">Updated 2 hours ago</span></div>
            """)
        for chunk in [nil, 16] {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.publishedTime == "2021-03-09", "chunk \(chunk ?? 0)")
            #expect(metadata.sources?["publishedTime"] == "labelled date")
        }
    }

    @Test func anUpdatedLabelWithAZoneGivesTheDateWhenNothingElseDoes() {
        let html = page(#"<div class="x3k">Updated: 10 March 2021, 14:05 UTC</div><div class="x3l">3 days ago</div>"#)
        #expect(extractHTML(html).publishedTime == "2021-03-10T14:05:00Z")
    }

    @Test func aCJKLabelInABareDiv() {
        let html = page("<div><div>公開 2021年3月9日 10:05</div></div>")
        for chunk in [nil, 16, 7] {
            #expect(extractHTML(html, chunk: chunk).publishedTime == "2021-03-09T10:05:00", "chunk \(chunk ?? 0)")
        }
    }

    @Test func aBareByWithTheNameInASpanIsTheByline() {
        let html = page(#"<div class="sc-e1"><span class="sc-e2">By <span class="sc-e3">Ann Lee</span></span></div>"#)
        for chunk in [nil, 16] {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.author == "Ann Lee", "chunk \(chunk ?? 0)")
        }
        let two = page(#"<div class="q1">By <a href="/p/1">Ann Lee</a> and <a href="/p/2">Bo Kim</a></div>"#)
        #expect(extractHTML(two).authors == ["Ann Lee", "Bo Kim"])
    }

    /// A template's header line with the label in a bare `<span>`: no
    /// attribute tells the tag gate to stop dropping text there, and no
    /// paragraph or text block captures it, so only the label itself can.
    /// Every chunking puts some chunk's start (where the gate may drop
    /// again) before one of the spans.
    @Test func aLabelInABareSpanIsReadInEveryChunking() {
        let html = page("""
            <header class="c-hdr__4e2"><span>Published: March 9, 2021</span>
            <span class="c-hdr__sep">·</span><span>By <span>Ann Lee</span></span></header>
            """)
        for chunk in [nil] + Array(1...40) {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.publishedTime == "2021-03-09", "chunk \(chunk ?? 0)")
            #expect(metadata.author == "Ann Lee", "chunk \(chunk ?? 0)")
        }
    }

    /// The same in list items, and a label cut by the chunk's end
    /// ("Upd" | "ated: …") and after white space.
    @Test func aLabelInABareListItemIsReadInEveryChunking() {
        let html = page("""
            <ul class="k7"><li>
              Updated: 10 March 2021, 14:05 UTC</li><li>By <span>Ann Lee</span></li></ul>
            """)
        for chunk in [nil] + Array(1...40) {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.publishedTime == "2021-03-10T14:05:00Z", "chunk \(chunk ?? 0)")
            #expect(metadata.author == "Ann Lee", "chunk \(chunk ?? 0)")
        }
    }

    /// The label alone in its element, the name in the next one (hashed
    /// class names, no marker): the label run goes on into the sibling's
    /// text, in every chunking (the gate may drop again at any chunk start).
    @Test(arguments: [
        #"<div class="x7f3a"><span>By </span><span>Ann Lee</span></div>"#,
        #"<div class="x7f3a"><span>By</span> <a href="/people/ann-lee">Ann Lee</a></div>"#,
        #"<div class="x7f3a"><span class="x1">Written by</span><span class="x2">Ann Lee</span></div>"#,
        #"<div><span>Par</span><span>Ann Lee</span><span>·</span><span>9 mars 2021</span></div>"#,
        "<div class=\"k\"><span>Por:</span>\n  <b>Ann Lee</b></div>",
        #"<div class="z"><span>Von</span> Ann Lee</div>"#,
        // No text block around it: only the carried label keeps the gate from dropping the name.
        #"<header><span>By</span> <span>Ann Lee</span></header>"#,
        #"<ul><li><span>By</span><span>Ann Lee</span></li><li>5 min read</li></ul>"#,
    ])
    func aLabelAloneInItsElementTakesTheNextElementsText(byline: String) {
        let html = page(byline)
        for chunk in [nil] + Array(1...40) {
            #expect(extractHTML(html, chunk: chunk).author == "Ann Lee", "chunk \(chunk ?? 0)")
        }
    }

    @Test func aDateLabelAloneInItsElementTakesTheNextElementsDate() {
        let html = page(#"<div class="m2"><span>Published:</span> <span>March 9, 2021</span> <span>4 min read</span></div>"#)
        for chunk in [nil] + Array(1...40) {
            let metadata = extractHTML(html, chunk: chunk)
            #expect(metadata.publishedTime == "2021-03-09", "chunk \(chunk ?? 0)")
            #expect(metadata.sources?["publishedTime"] == "labelled date", "chunk \(chunk ?? 0)")
        }
    }

    /// A bare `<time>` in a parent whose text says "Updated" is the
    /// update's date, never the published one while another date exists;
    /// a "Published" one stays the published date, whichever comes first.
    @Test func aTimeLabelledUpdatedIsNotThePublishedDate() {
        let forms = [
            #"<div class="m3"><span>Updated <time>June 1, 2021</time></span> <span>Published <time>March 9, 2021</time></span></div>"#,
            #"<div class="m3"><span>Updated <time datetime="2021-06-01">June 1</time></span> <time datetime="2021-03-09">March 9</time></div>"#,
            #"<div class="m3"><span>Updated:</span> <time>June 1, 2021</time> <span>Published:</span> <time>March 9, 2021</time></div>"#,
            #"<div class="m3"><span>Updated: <time datetime="2021-06-01"></time></span> <time datetime="2021-03-09"></time></div>"#,
        ]
        for html in forms.map(page) {
            for chunk in [nil, 7, 16] {
                let metadata = extractHTML(html, chunk: chunk)
                #expect(metadata.publishedTime == "2021-03-09", "\(html) chunk \(chunk ?? 0)")
                #expect(metadata.sources?["publishedTime"] == "time element", "chunk \(chunk ?? 0)")
            }
        }
        // The only date: read, as an updated label's date is.
        let alone = page(#"<div class="m3"><span>Updated <time>June 1, 2021</time></span></div>"#)
        #expect(extractHTML(alone).publishedTime == "2021-06-01")
        // Prose that only starts with the word is no label.
        let prose = page(#"<div class="m3"><span>Updatedness <time>June 1, 2021</time></span> <time>March 9, 2021</time></div>"#)
        #expect(extractHTML(prose).publishedTime == "2021-06-01")
    }

    /// What the carried label takes stays bounded: the next sibling that
    /// gives text, within the parent; prose after a lone "By" is no name.
    @Test func aCarriedLabelStopsAtTheNextSiblingAndTheParent() {
        let prose = page(#"<div class="k1"><span>By</span> the way, the depots are new and the trams run every ten minutes.</div>"#)
        #expect(extractHTML(prose).author == nil)
        let apart = page(#"<div class="k2"><span>By</span></div><div class="k3"><span>Ann Lee</span></div>"#)
        #expect(extractHTML(apart).author == nil)
        let menu = page(#"<nav><div class="m1"><span>By</span> <span>Ann Lee</span></div></nav>"#)
        #expect(extractHTML(menu).author == nil)
    }

    @Test func proseStartingWithByIsNoByline() {
        let html = page("""
            <div class="k1">By 2030, the city plans to double its tram lines.</div>
            <div class="k2">By the way, the depots are new.</div>
            <div class="k3">By Topic</div>
            """)
        #expect(extractHTML(html).author == nil)
        let menu = page(#"<nav><div class="m1"><span class="m2">By <span class="m3">Ann Lee</span></span></div></nav>"#)
        #expect(extractHTML(menu).author == nil)
        #expect(extractHTML(page(#"<div class="c1">作者：<span class="c2">山田太郎</span></div>"#)).author == "山田太郎")
    }
}

/// The display name inside a microdata author: `itemprop=name` nested in
/// `itemprop=author`, not the author element's whole text or link.
@Suite struct NestedMicrodataNameTests {
    @Test func theNestedNameIsTheAuthor() {
        let html = """
            <html><head><title>T</title></head><body><article>
            <div itemprop="author" itemscope itemtype="https://schema.org/Person">
            <span itemprop="name">Ann Lee</span><span itemprop="jobTitle">Transport Correspondent</span>
            <span itemprop="homeLocation">Leeds</span></div>
            </article></body></html>
            """
        #expect(extractHTML(html).authors == ["Ann Lee"])
        let link = """
            <html><head><title>T</title></head><body>
            <a itemprop="author" href="/people/ann-lee"><span itemprop="name">Ann Lee</span></a>
            </body></html>
            """
        #expect(extractHTML(link).authors == ["Ann Lee"])
    }
}
