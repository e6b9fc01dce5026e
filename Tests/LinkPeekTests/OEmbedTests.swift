import HTMLHead
import JSON
import Testing
@testable import LinkPeek

/// oEmbed: the provider list's matching, discovery, reading answers leniently but safely, and the merge.
@Suite struct OEmbedTests {
    // MARK: Provider list

    @Test func providerSchemesMatchTheirURLsOnly() {
        let youtube = "https://www.youtube.com/oembed?url="
        #expect(OEmbedProvider.request(for: "https://www.youtube.com/watch?v=abc")
            == youtube + "https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3Dabc&format=json")
        #expect(OEmbedProvider.request(for: "http://m.youtube.com/watch?v=abc")?.hasPrefix(youtube) == true)
        #expect(OEmbedProvider.request(for: "https://youtu.be/abc")?.hasPrefix(youtube) == true)
        #expect(OEmbedProvider.request(for: "https://WWW.YouTube.com.:443/watch?v=abc")?.hasPrefix(youtube) == true)
        #expect(OEmbedProvider.request(for: "https://x.com/someone/status/123")?
            .hasPrefix("https://publish.twitter.com/oembed?url=") == true)
        #expect(OEmbedProvider.request(for: "https://bsky.app/profile/a.bsky.social/post/3k")?
            .hasPrefix("https://embed.bsky.app/oembed?url=") == true)
        // Not a watch page, a look-alike host, another port, another scheme: no match.
        #expect(OEmbedProvider.request(for: "https://www.youtube.com/about") == nil)
        #expect(OEmbedProvider.request(for: "https://notyoutube.com/watch?v=abc") == nil)
        #expect(OEmbedProvider.request(for: "https://www.youtube.com.evil.test/watch?v=abc") == nil)
        #expect(OEmbedProvider.request(for: "http://www.youtube.com:8080/watch?v=abc") == nil)
        #expect(OEmbedProvider.request(for: "ftp://www.youtube.com/watch?v=abc") == nil)
        #expect(OEmbedProvider.request(for: "https://x.com/someone") == nil)
        #expect(OEmbedProvider.request(for: "not a url") == nil)
    }

    @Test func theListIsDataNamingEveryProviderTheIssueNames() {
        let names = Set(OEmbedProvider.bundled.map(\.name))
        #expect(names == ["YouTube", "Vimeo", "X", "Reddit", "Flickr", "SoundCloud", "Spotify", "TikTok", "Bluesky"])
        for provider in OEmbedProvider.bundled {
            #expect(provider.endpoint.hasPrefix("https://"))
            #expect(!provider.schemes.isEmpty)
        }
    }

    @Test func globStarsMatchAnyRun() {
        let glob = { (p: String, t: String) in OEmbedTarget.glob(Array(p.utf8), Array(t.utf8)) }
        #expect(glob("/r/*/comments/*", "/r/swift/comments/abc/title/"))
        #expect(!glob("/r/*/comments/*", "/r/swift/about"))
        #expect(glob("/*", "/"))
        #expect(glob("/watch*", "/watch?v=1"))
        #expect(!glob("/watch*", "/watchlist".replacingOccurrences(of: "watch", with: "w")))
    }

    // MARK: Discovery

    private func document(_ links: [[String: String]], base: String? = nil) -> HeadDocument {
        var elements = links.map { HTMLElement(name: "link", attributes: $0) }
        if let base { elements.insert(HTMLElement(name: "base", attributes: ["href": base]), at: 0) }
        return HeadDocument(elements: elements, headComplete: true)
    }

    @Test func discoveryReadsAlternateAndAlternativeJSONLinksOnly() {
        let xml = ["rel": "alternate", "type": "text/xml+oembed", "href": "/o.xml"]
        let json = ["rel": "Alternate", "type": "application/json+oembed", "href": "/o.json?u=1"]
        #expect(OEmbedDiscovery.endpoint(in: document([xml, json]), linkHeader: nil, pageURL: "https://a.test/p/1")
            == "https://a.test/o.json?u=1")
        let flickr = ["rel": "alternative", "type": "application/json+oembed", "href": "o.json"]
        #expect(OEmbedDiscovery.endpoint(in: document([flickr], base: "https://b.test/d/"), linkHeader: nil,
                                         pageURL: "https://a.test/p/1") == "https://b.test/d/o.json")
        #expect(OEmbedDiscovery.endpoint(in: document([xml]), linkHeader: nil, pageURL: "https://a.test/") == nil)
        let script = ["rel": "alternate", "type": "application/json+oembed", "href": "javascript:alert(1)"]
        #expect(OEmbedDiscovery.endpoint(in: document([script]), linkHeader: nil, pageURL: "https://a.test/") == nil)
    }

    @Test func discoveryReadsTheLinkHeader() {
        let field = #"<https://a.test/style.css>; rel="stylesheet", <https://a.test/o?x=1,2>; rel="alternate"; type="application/json+oembed"; title="a, b""#
        #expect(OEmbedDiscovery.fromLinkHeader(field) == "https://a.test/o?x=1,2")
        #expect(OEmbedDiscovery.fromLinkHeader(#"<https://a.test/o>; rel=alternate; type=application/json+oembed"#)
            == "https://a.test/o")
        #expect(OEmbedDiscovery.fromLinkHeader(#"<https://a.test/o>; rel="alternate"; type="text/xml+oembed""#) == nil)
        #expect(OEmbedDiscovery.fromLinkHeader("<unterminated; rel=alternate") == nil)
        #expect(OEmbedDiscovery.fromLinkHeader("") == nil)
    }

    // MARK: Answers

    @Test func answersAreReadLeniently() throws {
        let json = #"{"type":"Video","title":"  A\n title ","author_name":"Ann","author_url":"https://a.test/ann","provider_name":"P","thumbnail_url":"https://i.test/t.jpg","thumbnail_width":"480","thumbnail_height":360,"width":640,"height":360,"html":"<iframe src=\"https://p.test/embed/1\" width=\"640\"></iframe>","cache_age":"3600"}"#
        let answer = try #require(OEmbedResponse.parse(Array(json.utf8)))
        #expect(answer.type == "video" && answer.title == "A title" && answer.authorName == "Ann")
        #expect(answer.thumbnail == MediaResource(url: "https://i.test/t.jpg", width: 480, height: 360))
        #expect(answer.player == MediaResource(url: "https://p.test/embed/1", type: "text/html", width: 640, height: 360))
        #expect(answer.cacheAge == 3600)
    }

    @Test func nonsenseIsDroppedNotTrapped() {
        for bad in ["", "[]", "null", "{", "\"x\"", "{}", #"{"title": 5}"#, #"{"thumbnail_url": "javascript:x"}"#] {
            #expect(OEmbedResponse.parse(Array(bad.utf8)) == nil, "\(bad)")
        }
        let huge = #"{"title":"t","thumbnail_url":"https://i.test/a.jpg","thumbnail_width":1e300,"thumbnail_height":-5,"width":"NaN","height":1.5,"cache_age":-1}"#
        let answer = OEmbedResponse.parse(Array(huge.utf8))
        #expect(answer?.thumbnail == MediaResource(url: "https://i.test/a.jpg"))
        #expect(answer?.cacheAge == nil)
        let tooLong = Array(("{\"title\":\"" + String(repeating: "x", count: OEmbedResponse.maximumBytes) + "\"}").utf8)
        #expect(OEmbedResponse.parse(tooLong) == nil)
    }

    @Test func onlyASingleHTTPSIframeIsAPlayer() {
        #expect(OEmbedPlayer.iframeSource(#"<iframe src='https://p.test/e?a=1&amp;b=2'></iframe>"#) == "https://p.test/e?a=1&b=2")
        #expect(OEmbedPlayer.iframeSource(#" <IFRAME width=1 SRC="https://p.test/e"></IFRAME> "#) == "https://p.test/e")
        #expect(OEmbedPlayer.iframeSource(#"<iframe src="http://p.test/e"></iframe>"#) == nil)
        #expect(OEmbedPlayer.iframeSource(#"<iframe src="https://a.test/1"></iframe><iframe src="https://a.test/2"></iframe>"#) == nil)
        #expect(OEmbedPlayer.iframeSource(#"<blockquote>x</blockquote><script src="https://a.test/w.js"></script>"#) == nil)
        #expect(OEmbedPlayer.iframeSource(#"<iframe src="https://a.test/1"><script>x</script></iframe>"#) == nil)
        #expect(OEmbedPlayer.iframeSource(#"<iframe data-src="https://a.test/1"></iframe>"#) == nil)
        // Lowercasing that changes lengths ("İ" becomes two scalars) is refused, not misindexed.
        #expect(OEmbedPlayer.iframeSource(#"<iframe title="İİİİİİİİ" src="https://a.test/1"></iframe>"#) == nil)
        #expect(OEmbedPlayer.iframeSource(#"<iframe title="é" src="https://a.test/1"></iframe>"#) == "https://a.test/1")
    }

    // MARK: Merge

    private var answer: OEmbedResponse {
        var answer = OEmbedResponse()
        answer.title = "oEmbed title"
        answer.authorName = "Ann"
        answer.authorURL = "https://a.test/ann"
        answer.providerName = "Provider"
        answer.thumbnail = MediaResource(url: "https://i.test/t.jpg", width: 480, height: 360)
        answer.player = MediaResource(url: "https://p.test/embed/1", type: "text/html", width: 640, height: 360)
        return answer
    }

    @Test func thePageWinsWhereItDeclares() {
        var page = LinkMetadata(originalURL: "https://a.test/v/1")
        page.title = "Page title"
        page.siteName = "Page site"
        page.image = MediaResource(url: "https://a.test/og.jpg")
        page.sources = ["title": "og:title", "siteName": "og:site_name", "image": "og:image"]
        let merged = answer.fill(page)
        #expect(merged.title == "Page title" && merged.siteName == "Page site")
        #expect(merged.image?.url == "https://a.test/og.jpg")
        #expect(merged.author == "Ann" && merged.authorURL == "https://a.test/ann")
        #expect(merged.video == answer.player && merged.richness == .video)
        #expect(merged.sources == ["title": "og:title", "siteName": "og:site_name", "image": "og:image",
                                   "author": "oembed", "authorURL": "oembed", "video": "oembed"])
    }

    @Test func whatThePageOnlyShowedIsFilled() {
        var page = LinkMetadata(originalURL: "https://a.test/v/1")
        page.title = "First heading"
        page.image = MediaResource(url: "https://a.test/body.jpg")
        page.sources = ["title": "h1", "image": "body img"]
        let merged = answer.fill(page)
        #expect(merged.title == "oEmbed title" && merged.image?.url == "https://i.test/t.jpg")
        #expect(merged.images?.first?.url == "https://i.test/t.jpg")
        #expect(merged.sources?["title"] == "oembed" && merged.sources?["image"] == "oembed")
        #expect(OEmbedResponse.couldFill(page))
    }

    @Test func aCompletePageNeedsNoAnswer() {
        var page = LinkMetadata(originalURL: "https://a.test/v/1")
        page.title = "T"
        page.siteName = "S"
        page.author = "A"
        page.image = MediaResource(url: "https://a.test/og.jpg")
        page.sources = ["title": "og:title", "siteName": "og:site_name", "author": "author", "image": "og:image"]
        #expect(!OEmbedResponse.couldFill(page))
    }

    @Test func aPreviewFromTheAnswerAlone() {
        let preview = answer.preview(of: "https://a.test/v/1?x=1")
        #expect(preview.url == "https://a.test/v/1?x=1" && preview.title == "oEmbed title")
        #expect(preview.icon?.url == "https://a.test/favicon.ico" && preview.icon?.isUnverifiedFallback == true)
        #expect(preview.sources?["title"] == "oembed" && preview.sources?["icon"] == "favicon.ico fallback")
    }

    /// Sizes and ages are read whether the parser keeps the number as an
    /// integer or as a double (`JSONValue` keeps them apart), or as a string.
    @Test func numbersOfEitherKindAreRead() throws {
        let integers = #"{"type":"photo","url":"https://i.test/p.jpg","width":640,"height":480,"cache_age":86400}"#
        let integral = try #require(OEmbedResponse.parse(Array(integers.utf8)))
        #expect(integral.photo == MediaResource(url: "https://i.test/p.jpg", width: 640, height: 480))
        #expect(integral.cacheAge == 86400)
        let doubles = #"{"type":"photo","url":"https://i.test/p.jpg","width":6.4e2,"height":"480","cache_age":2.5}"#
        let fractional = try #require(OEmbedResponse.parse(Array(doubles.utf8)))
        #expect(fractional.photo == MediaResource(url: "https://i.test/p.jpg", width: 640, height: 480))
        #expect(fractional.cacheAge == 2.5)
    }

    /// The one parser's decisions (protocol/README.md, "Parsing"): a
    /// repeated key keeps its last value, an unpaired surrogate escape reads
    /// as U+FFFD, a number past the double range as the largest finite
    /// double (a size no range admits, so dropped), and nesting past the
    /// parser's limit refuses the answer.
    @Test func answersReadAsTheOneParserDecides() throws {
        let text = #"{"title":"first","title":"A \ud800 B","thumbnail_url":"https://i.test/t.jpg","thumbnail_width":1e400,"thumbnail_height":9,"cache_age":1e400}"#
        let answer = try #require(OEmbedResponse.parse(Array(text.utf8)))
        #expect(answer.title == "A \u{FFFD} B")
        #expect(answer.thumbnail == MediaResource(url: "https://i.test/t.jpg"))
        #expect(answer.cacheAge == .greatestFiniteMagnitude)
        let depth = JSONParser.maximumDepth
        let deep = #"{"title":"t","x":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        #expect(OEmbedResponse.parse(Array(deep.utf8)) == nil)
        let deepest = #"{"title":"t","x":"# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        #expect(OEmbedResponse.parse(Array(deepest.utf8))?.title == "t")
        // Not UTF-8: refused, as the daemon refuses such a message.
        #expect(OEmbedResponse.parse(Array(#"{"title":"caf"#.utf8) + [0xE9] + Array(#""}"#.utf8)) == nil)
    }
}
