import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

@Suite struct MetadataRulesJSONLDTests {
    @Test func graphWithReferencesGivesArticleFields() {
        let graph = #"""
        {"@context":"https://schema.org","@graph":[
          {"@type":"WebSite","@id":"https://example.com/#site","name":"Example Site"},
          {"@type":"Organization","@id":"https://example.com/#org","name":"Example Org"},
          {"@type":"Person","@id":"https://example.com/#jane","name":"Jane Doe"},
          {"@type":"WebPage","name":"Page name","description":"Page description"},
          {"@type":["NewsArticle"],"headline":"The headline","description":"Article description",
           "author":{"@id":"https://example.com/#jane"},"publisher":{"@id":"https://example.com/#org"},
           "datePublished":"2020-02-02T10:00:00+01:00","image":{"@type":"ImageObject","url":"/lead.jpg"}}
        ]}
        """#
        let metadata = extract([Tag.jsonLD(graph)])
        #expect(metadata.title == "The headline")
        #expect(metadata.summary == "Article description")
        #expect(metadata.author == "Jane Doe")
        #expect(metadata.siteName == "Example Org")
        #expect(metadata.publishedTime == "2020-02-02T10:00:00+01:00")
        #expect(metadata.image?.url == "https://example.com/lead.jpg")
        #expect(metadata.sources?["image"] == "json-ld:image")
    }

    /// schema.org spells it GovernmentOrganization; the publisher's name is not the page's.
    @Test func governmentOrganizationIsNotContent() {
        let array = #"[{"@type":"GovernmentOrganization","name":"Ministry of Examples"},{"@type":"Article","headline":"Notice"}]"#
        #expect(extract([Tag.jsonLD(array)]).title == "Notice")
        let alone = #"{"@type":"GovernmentOrganization","name":"Ministry of Examples","description":"About us"}"#
        #expect(extract([Tag.jsonLD(alone)]).title == nil)
    }

    @Test func topLevelArraysAndAuthorArrays() {
        let array = #"[{"@type":"BreadcrumbList","name":"Crumbs"},{"@type":"BlogPosting","name":"Post name","author":[{"@type":"Person","name":"A"},"B"],"image":["https://i.example/1.jpg","https://i.example/2.jpg"]}]"#
        let metadata = extract([Tag.jsonLD(array)])
        #expect(metadata.title == "Post name")
        #expect(metadata.author == "A, B")
        #expect(metadata.images?.map(\.url) == ["https://i.example/1.jpg", "https://i.example/2.jpg"])
    }

    @Test func brokenBlocksAreSkippedNotFatal() {
        let metadata = extract([
            Tag.jsonLD(#"{"@type":"Article","headline": oops"#),
            Tag.jsonLD("<!--\n{\"@type\":\"Article\",\"headline\":\"Line one\nline two\"}\n-->"),
        ])
        #expect(metadata.title == "Line one line two")
        let cdata = extract([Tag.jsonLD("//<![CDATA[\n{\"@type\":\"Article\",\"headline\":\"In --> CDATA\"}\n//]]>")])
        #expect(cdata.title == "In --> CDATA")
    }

    @Test func videoObjectContentURLIsDirectEmbedURLIsNot() {
        let ld = #"{"@type":"VideoObject","name":"v","embedUrl":"https://p.example/embed/9","contentUrl":"https://m.example/9.mp4"}"#
        let metadata = extract([Tag.jsonLD(ld)])
        #expect(metadata.remoteVideoURL == "https://m.example/9.mp4")
        let embedOnly = extract([Tag.jsonLD(#"{"@type":"VideoObject","embedUrl":"https://p.example/embed/9"}"#)])
        #expect(embedOnly.video?.url == "https://p.example/embed/9")
        #expect(embedOnly.remoteVideoURL == nil)
    }

    @Test func htmlTagsBeatJSONLD() {
        let metadata = extract([
            Tag.jsonLD(#"{"@type":"Article","author":{"name":"LD Author"},"description":"LD"}"#),
            Tag.meta(name: "author", "Meta Author"),
            Tag.meta(name: "description", "Meta"),
        ])
        #expect(metadata.author == "Meta Author")
        #expect(metadata.summary == "Meta")
    }
}
