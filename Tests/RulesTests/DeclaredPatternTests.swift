import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

/// Declared values written the ways real heads write them: several names
/// in one attribute, an article pasted into `meta description`, Parse.ly's
/// JSON meta (hand-written markup, no page copied).
@Suite struct DeclaredPatternTests {
    @Test func aPropertyListingSeveralNamesCountsForEach() {
        let page = extract([Tag.meta(property: "og:title twitter:title", "A headline"),
                            Tag.meta(property: "og:description  twitter:description", "What it says")])
        #expect(page.title == "A headline")
        #expect(page.sources?["title"] == "og:title")
        #expect(page.summary == "What it says")
        let twitterOnly = extract([Tag.meta(name: "twitter:title description", "Only twitter")])
        #expect(twitterOnly.title == "Only twitter")
        #expect(twitterOnly.summary == "Only twitter")
    }

    private static let longArticle = (1...40).map { "Sentence number \($0) of the article goes on." }.joined(separator: " ")

    @Test func aWholeArticleInMetaDescriptionLosesToAShortDeclaredOne() {
        let page = extract([Tag.meta(name: "description", Self.longArticle),
                            Tag.jsonLD(#"{"@type":"NewsArticle","description":"One sentence that sums it up."}"#)])
        #expect(page.summary == "One sentence that sums it up.")
        #expect(page.sources?["summary"] == "json-ld:description")
    }

    @Test func aWholeArticleInMetaDescriptionIsCutAtASentence() {
        let page = extract([Tag.meta(name: "description", Self.longArticle)])
        let summary = page.summary ?? ""
        #expect(summary.count <= MetadataRules.maximumSummaryLength)
        #expect(summary.hasPrefix("Sentence number 1 of the article goes on."))
        #expect(summary.hasSuffix("goes on."))
        // A description of ordinary length stays whole.
        #expect(extract([Tag.meta(name: "description", "Short and whole.")]).summary == "Short and whole.")
    }

    @Test func parselyPageGivesTheDateAndTheAuthor() {
        let json = #"{"title":"A headline","pub_date":"2021-03-09T08:15:00Z","author":"By Ann Lee","section":"News"}"#
        let page = extract([Tag.meta(name: "parsely-page", json)])
        #expect(page.publishedTime == "2021-03-09T08:15:00Z")
        #expect(page.sources?["publishedTime"] == "parsely-page")
        #expect(page.author == "Ann Lee")
        #expect(extract([Tag.meta(name: "parsely-page", "{not json")]).publishedTime == nil)
    }
}

/// A title's brand suffix written in a longer or shorter form than the
/// declared site name.
@Suite struct TitleBrandFormTests {
    @Test func aLongerFormOfTheSiteNameIsCut() {
        let page = extract([Tag.title("Bridge reopens after repairs | Acme News"),
                            Tag.meta(property: "og:site_name", "Acme")])
        #expect(page.title == "Bridge reopens after repairs")
        #expect(page.rawTitle == "Bridge reopens after repairs | Acme News")
    }

    @Test func aShorterFormOfASloganedSiteNameIsCut() {
        let page = extract([Tag.title("Bridge reopens after repairs · Acme"),
                            Tag.meta(property: "og:site_name", "Acme - the daily paper")])
        #expect(page.title == "Bridge reopens after repairs")
    }

    @Test func aKickerAndAnUnrelatedSuffixStay() {
        let rust = extract([Tag.title("Rust 1.80: LazyCell and more"), Tag.meta(property: "og:site_name", "Rust Blog")])
        #expect(rust.title == "Rust 1.80: LazyCell and more")
        let other = extract([Tag.title("Bridge reopens | Acmes Weekly"), Tag.meta(property: "og:site_name", "Acme")])
        #expect(other.title == "Bridge reopens | Acmes Weekly")
    }
}

/// A site name declared with its slogan.
@Suite struct SiteNameSloganTests {
    @Test func theSloganGoesWhenThePublisherNamesTheSiteWithoutIt() {
        let page = extract([Tag.meta(property: "og:site_name", "Acme News - Your daily paper since 1901"),
                            Tag.jsonLD(#"{"@type":"NewsArticle","publisher":{"@type":"Organization","name":"Acme News"}}"#)])
        #expect(page.siteName == "Acme News")
        #expect(page.sources?["siteName"] == "og:site_name")
    }

    @Test func theHostNamesTheSiteToo() {
        let page = extract([Tag.meta(property: "og:site_name", "Acmenews | Local stories")], url: "https://www.acmenews.example/a")
        #expect(page.siteName == "Acmenews")
    }

    @Test func withoutAnotherNameTheDeclaredOneStaysWhole() {
        #expect(extract([Tag.meta(property: "og:site_name", "Acme - Your daily paper")]).siteName == "Acme - Your daily paper")
        let other = extract([Tag.meta(property: "og:site_name", "Acme - Your daily paper"),
                             Tag.jsonLD(#"{"@type":"NewsArticle","publisher":{"@type":"Organization","name":"Beta"}}"#)])
        #expect(other.siteName == "Acme - Your daily paper")
    }
}

/// Title ends that the page's own headline shows to be no part of it.
@Suite struct TitleHeadlineEvidenceTests {
    private func h1(_ text: String) -> HTMLElement { HTMLElement(name: "h1", text: text, inBody: true, isFallback: true) }

    @Test func aSuffixBesideTheHeadlineGoes() {
        let page = extract([Tag.title("Storm floods the coast | Planet"), h1("Storm floods the coast")])
        #expect(page.title == "Storm floods the coast")
        #expect(page.rawTitle == "Storm floods the coast | Planet")
        let study = extract([Tag.meta(property: "og:title", "Sleep and memory in adults - Full Text View"),
                             Tag.jsonLD(#"{"@type":"MedicalStudy","headline":"Sleep and memory in adults"}"#)])
        #expect(study.title == "Sleep and memory in adults")
    }

    @Test func aParenthesisedAdditionTheHeadlineLacksGoesAndNamesNoSite() {
        let page = extract([Tag.meta(property: "og:title", "The bridge that came back (Published 2021)"),
                            h1("The bridge that came back")])
        #expect(page.title == "The bridge that came back")
        #expect(page.rawTitle == "The bridge that came back (Published 2021)")
        let titleOnly = extract([Tag.title("The bridge that came back (Published 2021)"), h1("The bridge that came back")])
        #expect(titleOnly.siteName == nil)
        // A parenthesis the headline has too stays.
        let kept = extract([Tag.title("Mercury (planet)"), h1("Mercury (planet)")])
        #expect(kept.title == "Mercury (planet)")
    }

    @Test func aSubtitleAfterAColonStaysBesideAShorterHeadline() {
        let page = extract([Tag.title("Rust 1.80: LazyCell and more"), h1("Rust 1.80")])
        #expect(page.title == "Rust 1.80: LazyCell and more")
        let kicker = extract([Tag.meta(property: "og:title", "Opinion | Why rain matters"), h1("Why rain matters")])
        #expect(kicker.title == "Opinion | Why rain matters")
    }
}

/// A site name glued on with an underscore, as some CMS templates write it.
@Suite struct TitleUnderscoreTests {
    @Test func anUnderscoreBeforeTheSiteNameSplits() {
        let page = extract([Tag.title("Bridge reopens after repairs_Acme Daily"), Tag.meta(property: "og:site_name", "Acme Daily")])
        #expect(page.title == "Bridge reopens after repairs")
        // Without evidence an underscore splits nothing.
        #expect(extract([Tag.title("read_me_first explained")]).title == "read_me_first explained")
    }
}
