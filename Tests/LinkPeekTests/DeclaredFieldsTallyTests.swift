import HTMLHead
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
}
