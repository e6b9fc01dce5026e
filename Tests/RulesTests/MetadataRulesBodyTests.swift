import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

/// A body element as the scanner keeps it for fallbacks.
private func body(_ name: String, _ attributes: [String: String] = [:], text: String? = nil) -> HTMLElement {
    HTMLElement(name: name, attributes: attributes, text: text, inBody: true, isFallback: true)
}

/// Fallbacks from the page body: used only when nothing is declared.
@Suite struct MetadataRulesBodyTests {
    @Test func audioFromPlayersThenLinks() {
        let page = extract([
            body("a", ["href": "/ep/1.mp3?dl=1"], text: "Download"),
            body("audio", ["preload": "none"]),
            body("source", ["src": "/ep/1.ogg", "type": "audio/ogg; codecs=vorbis"]),
        ])
        #expect(page.audio?.url == "https://example.com/ep/1.ogg")
        #expect(page.audio?.type == "audio/ogg")
        #expect(page.sources?["audio"] == "audio element")
        let linkOnly = extract([body("a", ["href": "https://cdn.example/show.MP3"], text: "MP3")])
        #expect(linkOnly.audio?.url == "https://cdn.example/show.MP3")
        #expect(linkOnly.sources?["audio"] == "audio link")
    }

    @Test func declaredAudioBeatsThePlayer() {
        let page = extract([Tag.meta(property: "og:audio", "https://example.com/og.mp3"), body("audio", ["src": "/b.mp3"])])
        #expect(page.audio?.url == "https://example.com/og.mp3")
    }

    @Test func videoElementPrefersContentOverDecoration() {
        let page = extract([
            body("video", ["src": "/bg.mp4", "muted": "", "autoplay": "", "loop": ""]),
            body("video", ["poster": "/poster.jpg"]),
            body("source", ["src": "/talk.mp4", "type": "video/mp4"]),
        ])
        #expect(page.video?.url == "https://example.com/talk.mp4")
        #expect(page.remoteVideoURL == "https://example.com/talk.mp4")
        #expect(page.image?.url == "https://example.com/poster.jpg")
        #expect(page.sources?["image"] == "video poster")
        #expect(page.richness == .video)
    }

    @Test func declaredPlayerPageIsNotReplacedByABodyFile() {
        let page = extract([
            Tag.meta(property: "og:video", "https://example.com/embed/1"),
            Tag.meta(property: "og:video:type", "text/html"),
            body("video", ["src": "/ad.mp4"]),
        ])
        #expect(page.video?.url == "https://example.com/embed/1")
    }

    @Test func bodyImageSkipsPixelsIconsAndPlaceholders() {
        let page = extract([
            body("img", ["src": "data:image/gif;base64,R0lGOD"]),
            body("img", ["src": "/t/pixel.gif"]),
            body("img", ["src": "/a.png", "width": "1", "height": "1"]),
            body("img", ["src": "/img/site-logo.png"]),
            body("img", ["src": "/me.jpg", "class": "avatar"]),
            body("img", ["src": "/icons/x.svg"]),
            body("img", ["src": "https://mc.example/watch/1", "class": "image a11y-hidden"]),
            body("img", ["src": "data:image/svg+xml,%3Csvg%3E", "data-src": "/lazy/photo.jpg", "alt": "A photo"]),
        ])
        #expect(page.image?.url == "https://example.com/lazy/photo.jpg")
        #expect(page.image?.alt == "A photo")
        #expect(page.sources?["image"] == "body img")
    }

    @Test func declaredImageBeatsBodyImages() {
        let page = extract([Tag.meta(property: "og:image", "/og.png"), body("img", ["src": "/photo.jpg"])])
        #expect(page.image?.url == "https://example.com/og.png")
        #expect(page.images?.count == 1)
    }

    @Test func bylineTiersAndCleanUp() {
        let relAuthor = extract([body("span", ["class": "byline"], text: "Kim"), body("a", ["rel": "author"], text: "By Ann Lee")])
        #expect(relAuthor.author == "Ann Lee")
        #expect(relAuthor.sources?["author"] == "rel=author link")
        let boxed = extract([
            body("div", ["class": "post-author"], text: "Written by Jo Park Share this post"),
            body("img", ["src": "/jo.jpg", "class": "author-avatar"]),
            body("a", ["class": "author-link", "href": "/u/jo"], text: "Jo Park"),
        ])
        #expect(boxed.author == "Jo Park")
        #expect(boxed.sources?["author"] == "byline")
        #expect(extract([body("div", ["class": "byline"], text: "Bruno Campos - 31.05.2022")]).author == "Bruno Campos")
        #expect(extract([body("div", ["class": "byline"], text: "Ann Lee - Editor")]).author == "Ann Lee - Editor")
        #expect(extract([body("p", ["class": "byline"], text: "Sam Roe • 5 min read")]).author == "Sam Roe")
    }

    @Test func bylineLabelsAndIdentifiersAreNotNames() {
        #expect(extract([body("h3", ["class": "author-title"], text: "About the author")]).author == nil)
        #expect(extract([body("cite", ["class": "comment-author vcard"], text: "Reader Joe")]).author == nil)
        #expect(extract([body("a", ["href": "/authors/x"], text: "n50030190")]).author == nil)
        #expect(extract([body("a", ["href": "/wiki/Gray_(author)"], text: "Michael Gray")]).author == nil)
        let page = extract([body("a", ["href": "/author/ann-lee/"], text: "Ann Lee")])
        #expect(page.author == "Ann Lee")
        #expect(page.sources?["author"] == "author page link")
    }

    @Test func declaredAuthorBeatsTheByline() {
        let page = extract([Tag.meta(name: "author", "Declared Name"), body("a", ["rel": "author"], text: "Other")])
        #expect(page.author == "Declared Name")
    }

    @Test func headingParagraphAndTimeFallbacks() {
        let page = extract([
            body("h1", text: "  The   heading "),
            body("p", text: "Share"),
            body("p", text: "A paragraph long enough to read as the summary of this page, at eighty characters or more."),
            body("time", ["datetime": "2024-05-01T10:00:00Z"], text: "May 1"),
        ])
        #expect(page.title == "The heading")
        #expect(page.sources?["title"] == "h1")
        #expect(page.summary == "A paragraph long enough to read as the summary of this page, at eighty characters or more.")
        #expect(page.sources?["summary"] == "first paragraph")
        #expect(page.publishedTime == "2024-05-01T10:00:00Z")
        #expect(page.sources?["publishedTime"] == "time element")
    }

    @Test func declaredTextBeatsHeadingAndParagraph() {
        let page = extract([
            Tag.title("Declared"), Tag.meta(name: "description", "Declared summary"),
            body("h1", text: "Heading"), body("p", text: String(repeating: "word ", count: 20)),
        ])
        #expect(page.title == "Declared")
        #expect(page.summary == "Declared summary")
    }
}

/// The site name written into `<title>`, taken only when corroborated.
@Suite struct MetadataRulesTitleAffixTests {
    @Test func suffixConfirmedByTheHeadline() {
        let page = extract([Tag.title("Bob Dylan - Wikipedia"), body("h1", text: "Bob Dylan")])
        #expect(page.siteName == "Wikipedia")
        #expect(page.sources?["siteName"] == "title suffix")
        let og = extract([Tag.title("A | B | Site"), Tag.meta(property: "og:title", "A | B")])
        #expect(og.siteName == "Site")
    }

    @Test func prefixConfirmedByTheFeedTitle() {
        let page = extract([
            Tag.title("LeanData |   The Winds of Change"),
            Tag.link(rel: "alternate", "/feed", type: "application/rss+xml").with(title: "LeanData » Feed"),
        ])
        #expect(page.siteName == "LeanData")
        #expect(page.sources?["siteName"] == "title prefix")
    }

    @Test func uncorroboratedTitlesGiveNoSiteName() {
        #expect(extract([Tag.title("Rock - Paper")]).siteName == nil)
        #expect(extract([Tag.title("Plain title")]).siteName == nil)
    }

    @Test func declaredSiteNameWins() {
        let page = extract([Tag.title("Bob Dylan - Wikipedia"), Tag.meta(property: "og:site_name", "Wiki"), body("h1", text: "Bob Dylan")])
        #expect(page.siteName == "Wiki")
    }
}

extension HTMLElement {
    fileprivate func with(title: String) -> HTMLElement {
        var copy = self
        copy.attributes["title"] = title
        return copy
    }
}

/// Links to video files are weaker than players.
@Suite struct MetadataRulesVideoLinkTests {
    private func link(_ href: String) -> HTMLElement {
        HTMLElement(name: "a", attributes: ["href": href], text: "Download", inBody: true, isFallback: true)
    }

    @Test func videoLinkOnlyWithoutADeclaredImage() {
        let bare = extract([link("/clip.webm")])
        #expect(bare.video?.url == "https://example.com/clip.webm")
        #expect(bare.sources?["video"] == "video link")
        let withImage = extract([Tag.meta(property: "og:image", "/og.png"), link("/clip.webm")])
        #expect(withImage.video == nil)
        #expect(withImage.image?.url == "https://example.com/og.png")
        #expect(withImage.richness == .text)
    }
}
