import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

/// Declared sources that are not Open Graph: `<meta name=publisher>` and
/// microdata `inLanguage`.
@Suite struct MetadataRulesDeclaredExtrasTests {
    @Test func publisherMetaNamesTheSite() {
        let page = extract([Tag.meta(name: "Publisher", "PR Wire"), Tag.jsonLD(#"{"@type":"NewsArticle","publisher":{"name":"Other"}}"#)])
        #expect(page.siteName == "PR Wire")
        #expect(page.sources?["siteName"] == "publisher")
        let og = extract([Tag.meta(property: "og:site_name", "OG Name"), Tag.meta(name: "publisher", "PR Wire")])
        #expect(og.siteName == "OG Name")
    }

    @Test func microdataLanguageIsTheLastResort() {
        let page = extract([Tag.itemprop("inLanguage", content: "en_US")])
        #expect(page.lang == "en-US")
        #expect(page.sources?["lang"] == "microdata:inlanguage")
        #expect(extract([Tag.itemprop("inLanguage", content: "en_US")], lang: "fr").lang == "fr")
    }
}
