import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

/// `title` without the site's name the page attached, `rawTitle` as written.
@Suite struct MetadataRulesTitleSplitTests {
    @Test func suffixMatchingTheDeclaredSiteNameGoes() {
        let page = extract([Tag.title("Rain tomorrow | Daily Planet"), Tag.meta(property: "og:site_name", "Daily Planet")])
        #expect(page.title == "Rain tomorrow")
        #expect(page.rawTitle == "Rain tomorrow | Daily Planet")
        #expect(page.siteName == "Daily Planet")
    }

    @Test func everySeparatorSplits() {
        for separator in [" | ", " - ", " – ", " — ", " : ", " · ", " » ", " « ", " • ", " › ", " ~ ", " / ", " _ ", "｜", "："] {
            let page = extract([Tag.title("Rain tomorrow" + separator + "Daily Planet"),
                                Tag.meta(name: "application-name", "Daily Planet")])
            #expect(page.title == "Rain tomorrow", "\(separator)")
        }
    }

    @Test func aSeparatorWithoutSpacesIsPartOfTheText() {
        for title in ["Rain/Daily Planet", "Rain~Daily Planet", "Rain•Daily Planet", "Rain›Daily Planet"] {
            let page = extract([Tag.title(title), Tag.meta(name: "application-name", "Daily Planet")])
            #expect(page.title == title)
        }
    }

    @Test func prefixMatchingTheJSONLDPublisherGoes() {
        let page = extract([
            Tag.title("Daily Planet: Rain tomorrow"),
            Tag.jsonLD(#"{"@type":"NewsArticle","publisher":{"@type":"Organization","name":"Daily Planet"}}"#),
        ])
        #expect(page.title == "Rain tomorrow")
        #expect(page.rawTitle == "Daily Planet: Rain tomorrow")
    }

    @Test func theHostsRegistrableNameCounts() {
        let page = extract([Tag.title("Rain tomorrow - DailyPlanet")], url: "https://www.dailyplanet.co.uk/news/1")
        #expect(page.title == "Rain tomorrow")
        #expect(page.siteName == "DailyPlanet")
        #expect(page.sources?["siteName"] == "title suffix")
    }

    @Test func theSameAffixOnAnotherTitleCounts() {
        let page = extract([Tag.title("Rain tomorrow | Planet"), Tag.meta(name: "twitter:title", "Rain and wind tomorrow | Planet")])
        #expect(page.title == "Rain and wind tomorrow")
        #expect(page.rawTitle == "Rain and wind tomorrow | Planet")
    }

    @Test func openGraphTitleWithTheSiteAffixIsShortened() {
        let page = extract([Tag.meta(property: "og:title", "Rain tomorrow | Daily Planet"),
                            Tag.meta(property: "og:site_name", "Daily Planet")])
        #expect(page.title == "Rain tomorrow")
        #expect(page.sources?["title"] == "og:title")
    }

    @Test func openGraphTitleWithoutSuchAnAffixStaysWhole() {
        // A dash that is part of the headline, and a part that only the h1 lacks.
        let dash = extract([Tag.meta(property: "og:title", "Spider-Man - the review"), Tag.meta(property: "og:site_name", "Planet")])
        #expect(dash.title == "Spider-Man - the review")
        #expect(dash.rawTitle == nil)
        let kicker = extract([Tag.meta(property: "og:title", "Opinion | Why rain matters"),
                              HTMLElement(name: "h1", text: "Why rain matters", inBody: true, isFallback: true)])
        #expect(kicker.title == "Opinion | Why rain matters")
    }

    @Test func aKickerRepeatedWithAnotherAffixIsNoSiteName() {
        let page = extract([Tag.title("Funding: Rain raises $5M - Planet"), Tag.meta(property: "og:title", "Funding: Rain raises $5M")])
        #expect(page.title == "Funding: Rain raises $5M")
    }

    @Test func aTitleThatIsOnlyTheSiteNameStays() {
        let page = extract([Tag.title("Daily Planet"), Tag.meta(property: "og:site_name", "Daily Planet")])
        #expect(page.title == "Daily Planet")
        #expect(page.rawTitle == nil)
    }
}
