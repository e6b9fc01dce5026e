import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

@Suite struct MetadataRulesTextTests {
    @Test func openGraphBeatsTwitterBeatsTitleBeatsJSONLD() {
        let all: [HTMLElement] = [
            Tag.jsonLD(#"{"@type":"NewsArticle","headline":"From JSON-LD"}"#),
            Tag.title("From title"),
            Tag.meta(name: "twitter:title", "From Twitter"),
            Tag.meta(property: "og:title", "From OG"),
        ]
        #expect(extract(all).title == "From OG")
        #expect(extract(all).sources?["title"] == "og:title")
        #expect(extract(Array(all.prefix(3))).title == "From Twitter")
        #expect(extract(Array(all.prefix(2))).title == "From title")
        #expect(extract(Array(all.prefix(1))).title == "From JSON-LD")
        #expect(extract(Array(all.prefix(1))).sources?["title"] == "json-ld:headline")
    }

    @Test func openGraphInNameAndTwitterInProperty() {
        let metadata = extract([Tag.meta(name: "og:title", "Named OG"), Tag.meta(property: "twitter:description", "Prop TW")])
        #expect(metadata.title == "Named OG")
        #expect(metadata.summary == "Prop TW")
        #expect(metadata.sources?["summary"] == "twitter:description")
    }

    @Test func emptyValuesFallThrough() {
        let metadata = extract([
            Tag.meta(property: "og:title", "   "),
            Tag.meta(property: "og:description", ""),
            Tag.title("\n  Real title \n"),
            Tag.meta(name: "description", "Plain description"),
        ])
        #expect(metadata.title == "Real title")
        #expect(metadata.sources?["title"] == "title")
        #expect(metadata.summary == "Plain description")
        #expect(metadata.sources?["summary"] == "description")
    }

    @Test func whitespaceCollapsesAndDoubleEncodedEntitiesDecode() {
        let metadata = extract([Tag.meta(property: "og:title", "  Tom &amp; Jerry&#8217;s \n\t  &quot;day&quot; &unknown; & co ")])
        #expect(metadata.title == "Tom & Jerry\u{2019}s \"day\" &unknown; & co")
    }

    @Test func siteNameSources() {
        #expect(extract([Tag.meta(name: "application-name", "App"), Tag.meta(property: "og:site_name", "OG Site")]).siteName == "OG Site")
        let fromPublisher = extract([Tag.jsonLD(#"{"@type":"Article","publisher":{"@type":"Organization","name":"Pub Inc"}}"#)])
        #expect(fromPublisher.siteName == "Pub Inc")
        #expect(fromPublisher.sources?["siteName"] == "json-ld:publisher.name")
        // Never invented from the host.
        #expect(extract([Tag.title("x")]).siteName == nil)
    }

    @Test func authorSkipsProfileURLsAndBylinePrefix() {
        let metadata = extract([
            Tag.meta(property: "article:author", "https://www.facebook.com/someone"),
            Tag.meta(name: "author", "By Jane Doe"),
        ])
        #expect(metadata.author == "Jane Doe")
        #expect(metadata.sources?["author"] == "author")
        // A handle is the last resort, below every declared author.
        #expect(extract([Tag.meta(name: "twitter:creator", "@jane"), Tag.meta(name: "author", "Jane Doe")]).author == "Jane Doe")
    }

    @Test func langFromHTMLThenLocaleThenHeader() {
        #expect(extract([Tag.meta(property: "og:locale", "fr_FR")], lang: " de-AT ").lang == "de-AT")
        let fromLocale = extract([Tag.meta(property: "og:locale", "en_US")], contentLanguage: "it")
        #expect(fromLocale.lang == "en-US")
        #expect(fromLocale.locale == "en_US")
        #expect(extract([], lang: "en_GB").lang == "en-GB")
        #expect(extract([], contentLanguage: "pt-BR, en").lang == "pt-BR")
        #expect(extract([], contentLanguage: "pt-BR").sources?["lang"] == "Content-Language")
    }

    @Test func publishedTimeTypeAndThemeColor() {
        let metadata = extract([
            Tag.meta(property: "og:type", "article"),
            Tag.meta(name: "theme-color", "#112233"),
            Tag.meta(name: "date", "2020-01-01"),
            Tag.meta(property: "article:published_time", " 2021-02-03T04:05:06Z "),
        ])
        #expect(metadata.publishedTime == "2021-02-03T04:05:06Z")
        #expect(metadata.sources?["publishedTime"] == "article:published_time")
        #expect(metadata.type == "article")
        #expect(metadata.themeColor == "#112233")
    }

    @Test func microdataIsTheLastResort() {
        let metadata = extract([
            Tag.itemprop("headline", text: "Micro headline", tag: "h1"),
            Tag.itemprop("datePublished", content: "2019-05-05"),
        ])
        #expect(metadata.title == "Micro headline")
        #expect(metadata.sources?["title"] == "microdata:headline")
        #expect(metadata.publishedTime == "2019-05-05")
    }

    @Test func publishedTimeSkipsValuesThatAreNotDates() {
        let metadata = extract([
            Tag.meta(name: "date", "yesterday"),
            Tag.itemprop("datePublished", text: "8:38 pm", tag: "span"),
            HTMLElement(name: "abbr", attributes: ["itemprop": "datePublished", "title": "2024-02-03T20:38:00Z"], text: "8:38 pm"),
        ])
        #expect(metadata.publishedTime == "2024-02-03T20:38:00Z")
        #expect(metadata.sources?["publishedTime"] == "microdata:datepublished")
    }
}
