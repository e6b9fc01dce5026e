import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

@Suite struct MetadataRulesMediaTests {
    @Test func structuredPropertiesAttachToThePrecedingImage() {
        let metadata = extract([
            Tag.meta(property: "og:image", "https://cdn.example/a.jpg"),
            Tag.meta(property: "og:image:width", "1200"),
            Tag.meta(property: "og:image:height", "630px"),
            Tag.meta(property: "og:image:alt", " A  cat "),
            Tag.meta(property: "og:image", "https://cdn.example/b.jpg"),
            Tag.meta(property: "og:image:type", "image/PNG"),
        ])
        #expect(metadata.image == MediaResource(url: "https://cdn.example/a.jpg", width: 1200, height: 630, alt: "A cat"))
        #expect(metadata.images?.map(\.url) == ["https://cdn.example/a.jpg", "https://cdn.example/b.jpg"])
        #expect(metadata.images?.last?.type == "image/png")
        #expect(metadata.sources?["image"] == "og:image")
    }

    @Test func secureURLBeatsURLBeatsBareTag() {
        let metadata = extract([
            Tag.meta(property: "og:image", "http://cdn.example/bare.jpg"),
            Tag.meta(property: "og:image:url", "http://cdn.example/url.jpg"),
            Tag.meta(property: "og:image:secure_url", "https://cdn.example/secure.jpg"),
        ])
        #expect(metadata.image?.url == "https://cdn.example/secure.jpg")
        #expect(metadata.sources?["image"] == "og:image:secure_url")
        let withoutSecure = extract([
            Tag.meta(property: "og:image", "http://cdn.example/bare.jpg"),
            Tag.meta(property: "og:image:url", "http://cdn.example/url.jpg"),
        ])
        #expect(withoutSecure.image?.url == "http://cdn.example/url.jpg")
    }

    @Test func openGraphImageBeatsTwitterAndJSONLD() {
        let metadata = extract([
            Tag.jsonLD(#"{"@type":"Article","image":"https://cdn.example/ld.jpg"}"#),
            Tag.meta(name: "twitter:image", "https://cdn.example/tw.jpg"),
            Tag.meta(property: "og:image", "https://cdn.example/og.jpg"),
        ])
        #expect(metadata.image?.url == "https://cdn.example/og.jpg")
        #expect(Set(metadata.images?.map(\.url) ?? []) == ["https://cdn.example/og.jpg", "https://cdn.example/tw.jpg", "https://cdn.example/ld.jpg"])
        // Declared, not fetched: nothing verified yet (`richness`).
        #expect(metadata.richness == .text)
    }

    @Test func dataImagesOnlyWhenNothingElseAndJavascriptNever() {
        let placeholder = "data:image/gif;base64,R0lGOD"
        let withReal = extract([
            Tag.meta(property: "og:image", placeholder),
            Tag.meta(property: "og:image", "javascript:alert(1)"),
            Tag.meta(name: "twitter:image", "/real.jpg"),
        ])
        #expect(withReal.image?.url == "https://example.com/real.jpg")
        #expect(withReal.images?.map(\.url) == ["https://example.com/real.jpg"])
        #expect(extract([Tag.meta(property: "og:image", placeholder)]).image?.url == placeholder)
    }

    @Test func playableVideoBeatsPlayerPageAndFlash() {
        let metadata = extract([
            Tag.meta(property: "og:video", "https://player.example/embed/1"),
            Tag.meta(property: "og:video:type", "text/html"),
            Tag.meta(property: "og:video", "https://player.example/old.swf"),
            Tag.meta(property: "og:video:type", "application/x-shockwave-flash"),
            Tag.meta(property: "og:video", "https://media.example/clip"),
            Tag.meta(property: "og:video:type", "video/mp4"),
            Tag.meta(property: "og:video:width", "640"),
        ])
        #expect(metadata.video == MediaResource(url: "https://media.example/clip", type: "video/mp4", width: 640))
        #expect(metadata.remoteVideoURL == "https://media.example/clip")
        #expect(metadata.richness == .video)
    }

    @Test func playerPageIsAVideoButNotARemoteVideoURL() {
        let metadata = extract([
            Tag.meta(property: "og:video:url", "https://player.example/embed/1"),
            Tag.meta(property: "og:video:secure_url", "https://player.example/embed/1?s"),
            Tag.meta(property: "og:video:type", "text/html"),
        ])
        #expect(metadata.video?.url == "https://player.example/embed/1?s")
        #expect(metadata.sources?["video"] == "og:video:secure_url")
        #expect(metadata.remoteVideoURL == nil)
    }

    @Test func extensionDecidesWhenNoTypeAndTwitterStreamIsDirect() {
        #expect(extract([Tag.meta(property: "og:video", "https://m.example/a.webm?x=1")]).remoteVideoURL == "https://m.example/a.webm?x=1")
        let stream = extract([
            Tag.meta(name: "twitter:player", "https://twitter.example/player"),
            Tag.meta(name: "twitter:player:stream", "https://video.example/stream"),
        ])
        #expect(stream.remoteVideoURL == "https://video.example/stream")
        #expect(stream.sources?["video"] == "twitter:player:stream")
    }

    @Test func audioFromOpenGraphAndJSONLD() {
        let og = extract([
            Tag.meta(property: "og:audio", "https://a.example/x.mp3"),
            Tag.meta(property: "og:audio:secure_url", "https://a.example/y.mp3"),
            Tag.meta(property: "og:audio:type", "audio/mpeg"),
        ])
        #expect(og.audio == MediaResource(url: "https://a.example/y.mp3", type: "audio/mpeg"))
        let ld = extract([Tag.jsonLD(#"{"@type":"AudioObject","contentUrl":"https://a.example/z.mp3"}"#)])
        #expect(ld.audio?.url == "https://a.example/z.mp3")
    }

    @Test func audioReferencedOnlyByItsIdentifierIsThatFile() {
        // A podcast episode names its audio by an `@id` that is the file's address.
        let episode = extract([Tag.jsonLD(
            #"{"@type":"PodcastEpisode","name":"Ep 1","audio":[{"@id":"https://cdn.example/e/1.mp3?src=feed"}]}"#)])
        #expect(episode.audio?.url == "https://cdn.example/e/1.mp3?src=feed")
        #expect(episode.sources?["audio"] == "json-ld:audio")
        // An identifier that is no audio file, or that the graph defines, is not.
        let page = extract([Tag.jsonLD(#"{"@type":"PodcastEpisode","audio":{"@id":"https://cdn.example/e/1#audio"}}"#)])
        #expect(page.audio == nil)
        let defined = extract([Tag.jsonLD(#"{"@graph":[{"@type":"PodcastEpisode","audio":{"@id":"https://cdn.example/e/1.mp3"}},"#
            + #"{"@id":"https://cdn.example/e/1.mp3","@type":"AudioObject","name":"Ep 1"}]}"#)])
        #expect(defined.audio == nil)
    }
}
