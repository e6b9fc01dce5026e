import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

/// `publishedTime` as ISO 8601 with the page's own offset.
@Suite struct MetadataRulesDateTests {
    @Test(arguments: [
        ("2016-05-03", "2016-05-03"),
        ("2016-05-03T14:58:00Z", "2016-05-03T14:58:00Z"),
        ("2016-05-03T14:58:00.123+02:00", "2016-05-03T14:58:00.123+02:00"),
        ("2016-05-03 14:58:00 -0700", "2016-05-03T14:58:00-07:00"),
        ("2016-05-03 14:58", "2016-05-03T14:58:00"),
        ("Tue, 03 May 2016 14:58:00 GMT", "2016-05-03T14:58:00Z"),
        ("Tue, 03 May 2016 14:58:00 +0530", "2016-05-03T14:58:00+05:30"),
        ("May 3, 2016, 2:58 p.m.", "2016-05-03T14:58:00"),
        ("Published: 3rd May 2016", "2016-05-03"),
        ("Sept. 12, 2021 at 9:05 am", "2021-09-12T09:05:00"),
    ])
    func knownFormsBecomeISO8601(written: String, iso: String) {
        #expect(MetadataRules.isoDate(written) == iso)
        let page = extract([Tag.meta(property: "article:published_time", written)])
        #expect(page.publishedTime == iso)
    }

    @Test func unknownFormsStayAsWritten() {
        #expect(MetadataRules.isoDate("Spring 2016") == nil)
        #expect(extract([Tag.meta(name: "date", "Spring 2016")]).publishedTime == "Spring 2016")
        #expect(MetadataRules.isoDate("2016-13-40") == nil)
        #expect(extract([Tag.meta(name: "date", "8:38 pm")]).publishedTime == nil)
    }

    @Test func aBylineDatelineGivesTheDate() {
        let byline = HTMLElement(name: "div", attributes: ["class": "byline"],
                                 text: "By Ann Lee · Transport desk · May 3, 2016, 2:58 p.m.", inBody: true, isFallback: true)
        let page = extract([byline])
        #expect(page.publishedTime == "2016-05-03T14:58:00")
        #expect(page.sources?["publishedTime"] == "dateline")
        #expect(page.author == "Ann Lee")
        let posted = HTMLElement(name: "p", attributes: ["class": "post-author"],
                                 text: "Posted on 3rd May 2016 by Ann", inBody: true, isFallback: true)
        #expect(extract([posted]).publishedTime == "2016-05-03")
    }

    @Test func aTimeElementBeatsTheDatelineAndProseIsNotRead() {
        let byline = HTMLElement(name: "span", attributes: ["class": "byline"], text: "Ann Lee, May 3, 2016",
                                 inBody: true, isFallback: true)
        let time = HTMLElement(name: "time", attributes: ["datetime": "2016-05-04"], inBody: true, isFallback: true)
        #expect(extract([byline, time]).publishedTime == "2016-05-04")
        let paragraph = HTMLElement(name: "p", text: "The tram opened on May 3, 2016, after years of work on the line.",
                                    inBody: true, isFallback: true)
        #expect(extract([paragraph]).publishedTime == nil)
    }
}
