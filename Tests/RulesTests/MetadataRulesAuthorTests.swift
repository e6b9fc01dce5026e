import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

/// The author field: which values name an author, and how several are written.
@Suite struct MetadataRulesAuthorTests {
    private func byline(_ text: String, rel: String? = nil) -> HTMLElement {
        var attributes = ["class": "byline"]
        attributes["rel"] = rel
        return HTMLElement(name: rel == nil ? "span" : "a", attributes: attributes, text: text, inBody: true, isFallback: true)
    }

    @Test func jsonLDAuthorArrayReadsAsAByline() {
        let two = extract([Tag.jsonLD(#"{"@type":"NewsArticle","author":[{"@type":"Person","name":"Ann Lee"},{"@type":"Person","name":"Bo Kim"}]}"#)])
        #expect(two.author == "Ann Lee, Bo Kim")
        #expect(two.authors == ["Ann Lee", "Bo Kim"])
        let three = extract([Tag.jsonLD(#"{"@type":"NewsArticle","author":["Ann Lee","Bo Kim","Cy Dow","Bo Kim"]}"#)])
        #expect(three.author == "Ann Lee, Bo Kim, Cy Dow")
        #expect(three.authors == ["Ann Lee", "Bo Kim", "Cy Dow"])
    }

    @Test func jsonLDAuthorReferenceIsFollowed() {
        let graph = ##"{"@graph":[{"@type":"Article","author":{"@id":"#ann"}},{"@type":"Person","@id":"#ann","name":"Ann Lee"}]}"##
        #expect(extract([Tag.jsonLD(graph)]).author == "Ann Lee")
    }

    @Test func placeholderURLAndDateAuthorsFallThrough() {
        for bad in ["Admin", "https://example.com/ann", "2024-05-01", "May 3, 2016"] {
            let metadata = extract([Tag.meta(name: "author", bad), Tag.meta(name: "dc.creator", "Ann Lee")])
            #expect(metadata.author == "Ann Lee", "\(bad)")
            #expect(metadata.sources?["author"] == "dc.creator")
        }
    }

    @Test func aNameWithADigitIsStillAName() {
        #expect(extract([Tag.meta(name: "author", "Ann Lee 2nd")]).author == "Ann Lee 2nd")
    }

    @Test func bylineThatIsTheSiteNameIsRefused() {
        let page = [Tag.meta(property: "og:site_name", "Daily Planet"), byline("Daily Planet", rel: "author")]
        #expect(extract(page).author == nil)
        #expect(extract([Tag.meta(property: "og:site_name", "Daily Planet"), byline("Clark Kent", rel: "author")]).author == "Clark Kent")
    }

    @Test func declaredOrganisationAuthorIsKept() {
        // schema.org lets an organisation be the author; what the page declares stands.
        let page = [Tag.meta(property: "og:site_name", "Daily Planet"), Tag.meta(name: "author", "Daily Planet")]
        #expect(extract(page).author == "Daily Planet")
    }

    @Test func twitterCreatorIsTheLastResort() {
        #expect(extract([Tag.meta(name: "twitter:creator", "@annlee")]).author == "annlee")
        #expect(extract([Tag.meta(name: "twitter:creator", "@annlee")]).sources?["author"] == "twitter:creator")
        #expect(extract([Tag.meta(name: "twitter:creator", "@annlee"), byline("Ann Lee")]).author == "Ann Lee")
        // The site's own account is not the author.
        #expect(extract([Tag.meta(name: "twitter:creator", "@planet"), Tag.meta(name: "twitter:site", "@planet")]).author == nil)
    }
}
