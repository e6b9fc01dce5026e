import Testing
@testable import HTMLHead

/// Where recorded body elements sit (`BodyContext`): the landmarks around
/// them and their depth, the same however the bytes arrive, bounded on
/// hostile nesting; and fallbacks in the caller's `apart` landmarks counted
/// against caps of their own.
@Suite struct BodyContextTests {
    typealias Landmarks = BodyContext.Landmarks

    /// The recorded `<time>` elements' landmarks by their `datetime`, fed whole and in 7-byte chunks (which must agree).
    func timeLandmarks(_ html: String, records: BodyRecords = BodyRecords()) -> [String: Landmarks] {
        let whole = scan(html, bodyRecords: records)
        #expect(scan(html, chunk: 7, bodyRecords: records).elements == whole.elements)
        var result: [String: Landmarks] = [:]
        for time in whole.all("time") { result[time["datetime"] ?? ""] = time.context.landmarks }
        return result
    }

    func time(_ name: String) -> String { "<time datetime=\(name)>x</time>" }

    @Test func elementsAndTheirLandmarks() {
        let found = timeLandmarks("""
            <html><head><title>t</title></head><body>\(time("top"))
            <header>\(time("pageHeader"))<nav><ul><li>\(time("nav"))</li></ul></nav></header>
            <main><article><header><h1>H</h1><div>\(time("articleHeader"))</div></header>
            <p>text \(time("inText"))</p><footer>\(time("articleFooter"))</footer></article>
            <aside>\(time("aside"))<form>\(time("form"))</form></aside></main>
            <footer>\(time("pageFooter"))</footer>\(time("bottom"))
            """)
        #expect(found["top"] == [])
        #expect(found["pageHeader"] == [.header])
        #expect(found["nav"] == [.header, .nav])
        #expect(found["articleHeader"] == [.main, .article, .firstArticle, .articleHeader])
        #expect(found["inText"] == [.main, .article, .firstArticle])
        #expect(found["articleFooter"] == [.main, .article, .firstArticle, .articleFooter])
        #expect(found["aside"] == [.main, .aside])
        #expect(found["form"] == [.main, .aside, .form])
        #expect(found["pageFooter"] == [.footer])
        #expect(found["bottom"] == [])
    }

    @Test func onlyTheFirstArticleIsFirstAndOneInsideAnotherIsNested() {
        let found = timeLandmarks("""
            <body><article>\(time("first"))<article>\(time("comment"))</article>\(time("afterComment"))</article>
            <article>\(time("second"))</article>
            """)
        #expect(found["first"] == [.article, .firstArticle])
        #expect(found["comment"] == [.article, .firstArticle, .nestedArticle])
        #expect(found["afterComment"] == [.article, .firstArticle])
        #expect(found["second"] == [.article])
    }

    @Test func ariaLandmarkRolesCountAsTheirElements() {
        let found = timeLandmarks("""
            <body><div role="Navigation search">\(time("nav"))</div><div role=complementary>\(time("aside"))</div>
            <div role=banner>\(time("banner"))</div><div role=contentinfo>\(time("contentinfo"))</div>
            <div role=main><div role=article>\(time("article"))</div></div><div role=navigations>\(time("none"))</div>
            """)
        #expect(found["nav"] == [.nav])
        #expect(found["aside"] == [.aside])
        #expect(found["banner"] == [.header])
        #expect(found["contentinfo"] == [.footer])
        #expect(found["article"] == [.main, .article, .firstArticle])
        #expect(found["none"] == [])
    }

    @Test func dialogsAndTheirRoles() {
        let found = timeLandmarks("""
            <body><dialog open>\(time("element"))</dialog><div role=dialog>\(time("role"))</div>
            <div role="alertdialog">\(time("alert"))</div>\(time("after"))
            """)
        #expect(found["element"] == [.dialog])
        #expect(found["role"] == [.dialog])
        #expect(found["alert"] == [.dialog])
        #expect(found["after"] == [])
    }

    @Test func hiddenElementsAndTheWaysPagesHideThem() {
        let found = timeLandmarks("""
            <body><div hidden>\(time("attribute"))</div><div aria-hidden="TRUE">\(time("aria"))</div>
            <div aria-hidden="false">\(time("ariaFalse"))</div><div style="color: red;Display : none">\(time("display"))</div>
            <span style="visibility:hidden">\(time("visibility"))</span><div style="display:none-ish">\(time("notNone"))</div>
            <div style="display:block" data-style="display:none">\(time("shown"))</div>\(time("after"))
            """)
        #expect(found["attribute"] == [.hidden])
        #expect(found["aria"] == [.hidden])
        #expect(found["display"] == [.hidden])
        #expect(found["visibility"] == [.hidden])
        for shown in ["ariaFalse", "notNone", "shown", "after"] { #expect(found[shown] == [], "\(shown)") }
    }

    @Test func noscriptHoldsWhatReadersWithoutScriptsSee() {
        let found = timeLandmarks("""
            <body><figure><noscript>\(time("inside"))</noscript>\(time("after"))</figure>
            """)
        #expect(found["inside"] == [.noscript])
        #expect(found["after"] == [])
    }

    /// Screen-reader-only utility classes hide what they hold from the
    /// screen: a whole class token, in any case.
    @Test func screenReaderOnlyClassesHide() {
        let found = timeLandmarks("""
            <body><span class="label SR-only">\(time("srOnly"))</span><div class="visually-hidden">\(time("visually"))</div>
            <span class="screen-reader-text">\(time("screenReader"))</span><span class="sr-only-x not-sr-only">\(time("srNot"))</span>
            """)
        for hidden in ["srOnly", "visually", "screenReader"] { #expect(found[hidden] == [.hidden], "\(hidden)") }
        #expect(found["srNot"] == [])
    }

    /// Areas marked by the caller's class and id words: a whole token or a
    /// token's beginning, in any case; never on the elements that speak for
    /// the whole story.
    @Test func areasMarkedByClassOrID() {
        let records = BodyRecords(areaWords: ["comment"], areaPrefixes: ["related"])
        let found = timeLandmarks("""
            <body><div class="jp-RelatedPosts">\(time("prefix"))<div class=comment>\(time("inner"))</div></div>
            <section id="comment">\(time("id"))</section><ol class="x comment-list">\(time("token"))</ol>
            <div class="commentary">\(time("longerWord"))</div><div class="unrelated">\(time("midWord"))</div>
            <article class="related comments">\(time("article"))</article><main class="comment">\(time("main"))</main>
            <div data-x="related">\(time("otherAttribute"))</div>\(time("after"))
            """, records: records)
        #expect(found["prefix"] == [.markedArea])
        #expect(found["inner"] == [.markedArea])
        #expect(found["id"] == [.markedArea])
        #expect(found["token"] == [.markedArea])
        #expect(found["longerWord"] == [])
        #expect(found["midWord"] == [])
        #expect(found["article"] == [.article, .firstArticle])
        #expect(found["main"] == [.main])
        #expect(found["otherAttribute"] == [])
        #expect(found["after"] == [])
        // Without words nothing is marked.
        #expect(timeLandmarks("<body><div class=related>\(time("plain"))</div>")["plain"] == [])
    }

    /// An article inside a marked area (a teaser) is not the page's first
    /// when the caller counts marked areas apart.
    @Test func anArticleInAMarkedAreaIsNotTheFirst() {
        let records = BodyRecords(apart: [.markedArea], areaPrefixes: ["related"])
        let found = timeLandmarks("""
            <body><div class=related-posts><article>\(time("teaser"))</article></div>
            <article>\(time("story"))</article>
            """, records: records)
        #expect(found["teaser"] == [.markedArea, .article])
        #expect(found["story"] == [.article, .firstArticle])
    }

    @Test func impliedEndsCloseLandmarks() {
        // An unclosed `<nav>` ends with its parent; a stray `</aside>` closes nothing.
        let found = timeLandmarks("<body><div><nav>\(time("nav"))</div>\(time("after"))</aside>\(time("stray"))")
        #expect(found["nav"] == [.nav])
        #expect(found["after"] == [])
        #expect(found["stray"] == [])
    }

    @Test func depthIsCountedFromHTML() {
        let document = scan("<html><body><div><p>one</p></div><h1>two</h1>")
        #expect(document.all("p").first?.context.depth == 4)
        #expect(document.all("h1").first?.context.depth == 3)
        #expect(document.all("p").first?.context.landmarks == [])
    }

    /// 10,000 nested elements: the depth is capped, and the landmarks opened
    /// and closed at any depth come right (the tracker keeps no stack).
    @Test func deepNestingStaysBoundedAndRight() {
        let count = 10_000
        let deep = String(repeating: "<div>", count: count) + "<aside>\(time("deepAside"))</aside>\(time("deep"))"
            + String(repeating: "</div>", count: count)
        let html = "<body><nav>" + deep + time("inNav") + "</nav>" + time("after")
        let document = scan(html)
        let times = Dictionary(uniqueKeysWithValues: document.all("time").map { ($0["datetime"] ?? "", $0.context) })
        #expect(times["deepAside"]?.landmarks == [.nav, .aside])
        #expect(times["deepAside"]?.depth == BodyContext.maximumDepth)
        #expect(times["deep"]?.landmarks == [.nav])
        #expect(times["inNav"]?.landmarks == [.nav])
        #expect(times["inNav"]?.depth == 4)
        #expect(times["after"]?.landmarks == [])
    }

    @Test func headElementsHaveNoContext() {
        let document = scan("<head><meta name=a content=b></head><body><nav><span itemprop=author>Ann</span></nav>")
        #expect(document.all("meta").first?.context == BodyContext())
        #expect(document.all("span").first?.context.landmarks == [.nav])
    }

    /// Fallbacks in the caller's `apart` landmarks have caps of their own:
    /// a related list of twelve dated items before the article leaves the
    /// article's `<time>` recorded. Without `apart` the list uses up the cap.
    @Test func apartLandmarksAreCountedApart() {
        let related = (1...12).map { "<li>\(time("related\($0)"))</li>" }.joined()
        let html = "<body><aside><ul>\(related)</ul></aside><article>\(time("story"))</article>"
        let limit = ElementCollector.FallbackLimits().times
        let apart = scan(html, bodyRecords: BodyRecords(apart: [.aside, .nav])).all("time")
        #expect(apart.count == limit + 1)
        #expect(apart.last?["datetime"] == "story")
        let together = scan(html).all("time")
        #expect(together.count == limit)
        #expect(!together.contains { $0["datetime"] == "story" })
    }
}

extension BodyContextTests {
    /// An `<article>` inside an `apart` landmark (a teaser in a related
    /// list before the story) is not the page's first.
    @Test func anArticleInsideAnApartLandmarkIsNotTheFirst() {
        let html = "<body><aside><article>\(time("teaser"))</article></aside><article>\(time("story"))</article>"
        let apart = timeLandmarks(html, records: BodyRecords(apart: [.aside]))
        #expect(apart["teaser"] == [.aside, .article])
        #expect(apart["story"] == [.article, .firstArticle])
        let plain = timeLandmarks(html)
        #expect(plain["teaser"] == [.aside, .article, .firstArticle])
        #expect(plain["story"] == [.article])
    }
}

extension BodyContextTests {
    /// Every `<time>` is kept with its text (its date may be there), a bare
    /// one too: the tag gate keeps its text in every chunking.
    @Test func timesAreKeptWithTheirText() {
        let html = "<body><section><time class=published>May 3, 2016</time><span><time>March 9, 2021</time></span>"
            + "<time datetime=2024-01-01>x</time></section>"
        for chunk in [nil] + Array(1...12) {
            let kept = scan(html, chunk: chunk).all("time")
            #expect(kept.map(\.text) == ["May 3, 2016", "March 9, 2021", "x"], "chunk \(chunk ?? 0)")
        }
    }
}

extension BodyContextTests {
    /// Many undated `<time>`s (a feed's "1w") do not use up the cap of dated ones.
    @Test func undatedTimesHaveACapOfTheirOwn() {
        let limits = ElementCollector.FallbackLimits()
        let feed = String(repeating: "<time class=ago>1w</time>", count: limits.textTimes + 5)
        let kept = scan("<body>" + feed + "<time datetime=2017-03-08>Mar 8, 2017</time>").all("time")
        #expect(kept.count == limits.textTimes + 1)
        #expect(kept.last?["datetime"] == "2017-03-08")
    }
}
