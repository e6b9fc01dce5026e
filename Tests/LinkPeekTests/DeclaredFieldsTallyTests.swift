import HTMLHead
import LinkPeekTestSupport
import Testing
@testable import LinkPeek

/// The stop rule's running tally of declared fields gives what a look at the
/// whole document gives, however the document grew between two looks.
@Suite struct DeclaredFieldsTallyTests {
    @Test func theTallyMatchesTheWholeDocumentAsItGrows() {
        let elements = [
            Tag.title(""),
            Tag.meta(property: "og:description", "A summary"),
            Tag.link(rel: "image_src", "/a.png"),
            Tag.meta(property: "og:type", "article"),
            Tag.jsonLD("{\"@type\": \"NewsArticle\""),
            Tag.meta(name: "Author", "Ann Example"),
            Tag.meta(property: "article:published_time", "2024-05-01"),
        ]
        var tally = DeclaredFieldsTally()
        var document = HeadDocument(elements: [])
        for element in elements {
            document.elements.append(element)
            #expect(tally.update(document) == document.declaredFields)
        }
        // An open title and script get their text later: the tally sees it.
        document.elements[0].text = "The title"
        document.elements[4].text = "{\"@type\": \"NewsArticle\", \"publisher\": {}}"
        let grown = tally.update(document)
        #expect(grown == document.declaredFields)
        #expect(grown.contains(.title) && grown.contains(.siteName) && grown.contains(.published))
    }

    @Test func whatOneMetaDeclares() {
        #expect(DeclaredFields.declared(byMeta: "og:title", content: "T") == .title)
        #expect(DeclaredFields.declared(byMeta: "description", content: "S") == .summary)
        #expect(DeclaredFields.declared(byMeta: "twitter:image:src", content: "/a.png") == .image)
        #expect(DeclaredFields.declared(byMeta: "dcterms.publisher", content: "Site") == .siteName)
        #expect(DeclaredFields.declared(byMeta: "twitter:player:stream", content: "/v.mp4") == .media)
        #expect(DeclaredFields.declared(byMeta: "og:type", content: "Article") == .article)
        #expect(DeclaredFields.declared(byMeta: "og:type", content: "website") == [])
        #expect(DeclaredFields.declared(byMeta: "author", content: "Ann Example") == .author)
        #expect(DeclaredFields.declared(byMeta: "author", content: "https://example.com/ann") == [])
        #expect(DeclaredFields.declared(byMeta: "article:author", content: "https://example.com/ann") == .article)
        #expect(DeclaredFields.declared(byMeta: "article:author", content: "Ann") == [.article, .author])
        #expect(DeclaredFields.declared(byMeta: "article:published_time", content: "2024") == [.article, .published])
        #expect(DeclaredFields.declared(byMeta: "dc.date.issued", content: "2024") == .published)
        #expect(DeclaredFields.declared(byMeta: "article:section", content: "News") == .article)
        #expect(DeclaredFields.declared(byMeta: "keywords", content: "a, b") == [])
    }

    /// The byte search finds what a substring look for each key and type
    /// finds (the definition it replaced): seeded random blocks built of the
    /// keys, their parts, quotes and other text.
    @Test func theJSONLDSearchFindsWhatSubstringsFind() {
        func reference(_ text: String) -> DeclaredFields {
            var found: DeclaredFields = []
            if text.contains("\"publisher\"") || text.contains("\"WebSite\"") { found.insert(.siteName) }
            if text.contains("Article\"") || text.contains("\"BlogPosting\"") || text.contains("\"Report\"") {
                found.insert(.article)
            }
            if text.contains("\"author\"") || text.contains("\"creator\"") { found.insert(.author) }
            if text.contains("\"datePublished\"") { found.insert(.published) }
            if text.contains("\"headline\"") { found.insert(.title) }
            if text.contains("\"description\"") { found.insert(.summary) }
            if text.contains("\"image\"") || text.contains("\"thumbnailUrl\"") { found.insert(.image) }
            return found
        }
        var random = SeededGenerator(seed: SeededGenerator.seed(default: 20_2026))
        let words = ["publisher", "WebSite", "NewsArticle", "Article", "BlogPosting", "Report", "author", "creator",
                     "datePublished", "headline", "description", "image", "thumbnailUrl"]
        let pieces = words.flatMap { [$0, String($0.dropFirst()), String($0.dropLast())] }
            + ["\"", "\"", "\"", ": ", ", ", "{", "}", "é", "\\\"", "x"]
        for round in 0..<500 {
            var text = ""
            for _ in 0..<Int.random(in: 0...30, using: &random) { text += pieces.randomElement(using: &random) ?? "" }
            #expect(DeclaredFields.declared(byJSONLD: text) == reference(text), "round \(round): \(text)")
        }
        #expect(DeclaredFields.declared(byJSONLD: "{\"@type\": \"NewsArticle\", \"author\": {}}") == [.article, .author])
        #expect(DeclaredFields.declared(byJSONLD: "{\"authors\": 1, \"Articles\": 2}") == [])
        // At the very edges of the block.
        #expect(DeclaredFields.declared(byJSONLD: "Article\"") == .article)
        #expect(DeclaredFields.declared(byJSONLD: "\"image\"") == .image)
        #expect(DeclaredFields.declared(byJSONLD: "\"image") == [])
        #expect(DeclaredFields.declared(byJSONLD: "") == [])
    }

    /// A block searched once is searched again when its text grew.
    @Test func aGrowingBlockIsSearchedAgain() {
        var document = HeadDocument(elements: [Tag.jsonLD("{\"@type\": \"Thing\"")])
        var tally = DeclaredFieldsTally()
        #expect(tally.update(document) == [])
        document.elements[0].text = "{\"@type\": \"Thing\", \"headline\": \"A\"}"
        #expect(tally.update(document) == .title)
        #expect(tally.update(document) == .title)
    }
}
