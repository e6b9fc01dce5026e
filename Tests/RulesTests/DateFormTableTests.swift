import HTMLHead
import PureTestSupport
import Metadata
import Testing
@testable import Rules

/// Every date form the rules read, written as pages write them, with the
/// ISO 8601 it must become: one row per form.
@Suite struct DateFormTableTests {
    static let forms: [(written: String, iso: String)] = [
        // ISO 8601 and its near relatives.
        ("2021-03-09", "2021-03-09"),
        ("2021-03-09T08:15:00Z", "2021-03-09T08:15:00Z"),
        ("2021-03-09T08:15:00.000Z", "2021-03-09T08:15:00.000Z"),
        ("2021-03-09T08:15:00+09:00", "2021-03-09T08:15:00+09:00"),
        ("2021-03-09T08:15:00-0500", "2021-03-09T08:15:00-05:00"),
        ("2021-03-09T08:15-500", "2021-03-09T08:15:00-05:00"),
        ("2021-03-09T08:15:00+0000", "2021-03-09T08:15:00+00:00"),
        ("2021-03-09 08:15:00", "2021-03-09T08:15:00"),
        ("2021-03-09 08:15", "2021-03-09T08:15:00"),
        ("2021-03-09 08:15:00 UTC", "2021-03-09T08:15:00Z"),
        ("2021-3-9", "2021-03-09"),
        // RFC 2822 and JavaScript's Date.toString.
        ("Tue, 09 Mar 2021 08:15:00 GMT", "2021-03-09T08:15:00Z"),
        ("Tue, 09 Mar 2021 08:15:00 +0530", "2021-03-09T08:15:00+05:30"),
        ("Tue, 9 Mar 2021 08:15:00 -0800", "2021-03-09T08:15:00-08:00"),
        ("Tue Mar 09 08:15:00 EST 2021", "2021-03-09T08:15:00-05:00"),
        ("Tue Mar 09 2021 08:15:00 GMT-0500 (Eastern Standard Time)", "2021-03-09T08:15:00-05:00"),
        ("Tue Mar 09 2021 08:15:00 GMT+0100 (Central European Standard Time)", "2021-03-09T08:15:00+01:00"),
        // Month names, English.
        ("March 9, 2021", "2021-03-09"),
        ("Mar 9, 2021", "2021-03-09"),
        ("Mar. 9, 2021", "2021-03-09"),
        ("9 March 2021", "2021-03-09"),
        ("09 Mar 2021", "2021-03-09"),
        ("Tuesday, March 9, 2021", "2021-03-09"),
        ("Sep 3rd, 2021", "2021-09-03"),
        ("September 3rd 2021", "2021-09-03"),
        ("Sept. 12, 2021", "2021-09-12"),
        ("1st June 2021", "2021-06-01"),
        ("22nd Feb 2021", "2021-02-22"),
        ("March 9, 2021, 8:15 a.m.", "2021-03-09T08:15:00"),
        ("March 9, 2021 at 8:15 PM", "2021-03-09T20:15:00"),
        ("March 9, 2021 12:30 PM", "2021-03-09T12:30:00"),
        ("March 9, 2021 12:30 AM", "2021-03-09T00:30:00"),
        ("March 9, 2021 8:15pm", "2021-03-09T20:15:00"),
        ("Published: March 9, 2021", "2021-03-09"),
        ("Updated: March 9, 2021 8:15 AM UTC", "2021-03-09T08:15:00Z"),
        ("Reviewed: Mar 9, 2021", "2021-03-09"),
        ("Last updated on 9 March 2021", "2021-03-09"),
        // Zone abbreviations (ZoneAbbreviations).
        ("3/14/2021 9:05 PM PT", "2021-03-14T21:05:00-07:00"),
        ("3/13/2021 9:05 PM PT", "2021-03-13T21:05:00-08:00"),
        ("Nov 10, 2021 9:05 PM ET", "2021-11-10T21:05:00-05:00"),
        ("July 4, 2021 10:00 AM ET", "2021-07-04T10:00:00-04:00"),
        ("March 9, 2021 8:15 AM EDT", "2021-03-09T08:15:00-04:00"),
        ("March 9, 2021 8:15 AM PST", "2021-03-09T08:15:00-08:00"),
        ("March 9, 2021 8:15 AM PDT", "2021-03-09T08:15:00-07:00"),
        ("March 9, 2021 8:15 AM CST", "2021-03-09T08:15:00-06:00"),
        ("March 9, 2021 8:15 AM CDT", "2021-03-09T08:15:00-05:00"),
        ("March 9, 2021 8:15 AM MST", "2021-03-09T08:15:00-07:00"),
        ("March 9, 2021 08:15 IST", "2021-03-09T08:15:00+05:30"),
        ("March 9, 2021 08:15 JST", "2021-03-09T08:15:00+09:00"),
        ("March 9, 2021 08:15 KST", "2021-03-09T08:15:00+09:00"),
        ("9 March 2021 08:15 CET", "2021-03-09T08:15:00+01:00"),
        ("9 June 2021 08:15 CEST", "2021-06-09T08:15:00+02:00"),
        ("9 June 2021 08:15 BST", "2021-06-09T08:15:00+01:00"),
        ("9 March 2021 08:15 GMT", "2021-03-09T08:15:00Z"),
        ("9 March 2021 08:15 AEDT", "2021-03-09T08:15:00+11:00"),
        ("9 March 2021 08:15 HKT", "2021-03-09T08:15:00+08:00"),
        // Numeric dates in their national orders.
        ("2021.06.05", "2021-06-05"),
        ("2021/06/05", "2021-06-05"),
        ("2021/06/05 08:15", "2021-06-05T08:15:00"),
        ("23.08.2021", "2021-08-23"),
        ("23.08.2021 08:15", "2021-08-23T08:15:00"),
        ("3.8.2021", "2021-08-03"),
        ("03-09-2021", "2021-03-09"),
        ("3/14/2021", "2021-03-14"),
        ("14/03/2021", "2021-03-14"),
        ("03/09/2021 10:30 AM", "2021-03-09T10:30:00"),
        // CJK.
        ("2021年07月09日 08時15分", "2021-07-09T08:15:00"),
        ("2021年7月9日", "2021-07-09"),
        ("最終更新日：2021年3月9日", "2021-03-09"),
        ("公開日：2021年3月9日 10:05", "2021-03-09T10:05:00"),
        ("2021年3月9日(火) 午後3時5分", "2021-03-09T15:05:00"),
        ("２０２１年３月９日", "2021-03-09"),
        ("2021年3月9日 08:15", "2021-03-09T08:15:00"),
        ("2021年3月9号", "2021-03-09"),
        ("2021년 3월 9일", "2021-03-09"),
        ("2021년 3월 9일 오후 3:05", "2021-03-09T15:05:00"),
        // Other languages' month names.
        ("9 mars 2021", "2021-03-09"),
        ("Publié le 9 mars 2021 à 08:15", "2021-03-09T08:15:00"),
        ("9 de marzo de 2021", "2021-03-09"),
        ("9. März 2021", "2021-03-09"),
        ("9. März 2021 um 08:15 Uhr", "2021-03-09T08:15:00"),
        ("9 marzo 2021", "2021-03-09"),
        ("9 de março de 2021", "2021-03-09"),
        ("9 maart 2021", "2021-03-09"),
        ("23 décembre 2021", "2021-12-23"),
        // Clocks written with a dot or an "h", weekdays in other languages,
        // hyphenated month names, separators between date and time.
        ("Tuesday 9 March 2021 08.15 GMT", "2021-03-09T08:15:00Z"),
        ("9.3.2021 klo 8.15", "2021-03-09T08:15:00"),
        ("mardi 9 mars 2021 à 08h15", "2021-03-09T08:15:00"),
        ("9 mars 2021 à 8h15", "2021-03-09T08:15:00"),
        ("Di 09.03.2021 08:15 Uhr", "2021-03-09T08:15:00"),
        ("9-Mar-2021", "2021-03-09"),
        ("Mar 9, 2021 / 8:15 AM EST", "2021-03-09T08:15:00-05:00"),
        ("March 9, 2021 — 8:15 AM", "2021-03-09T08:15:00"),
        ("2021年3月9日 17時05分 JST", "2021-03-09T17:05:00+09:00"),
        ("9:05 PM EDT, Tue March 9, 2021", "2021-03-09T21:05:00-04:00"),
        // Year, month and day as numbers with dots and spaces, as Korean pages write them.
        ("2021. 6. 5.", "2021-06-05"),
        ("2021. 6. 5. 14:30", "2021-06-05T14:30:00"),
        // "Mis à jour le" (updated) before a French date.
        ("mis à jour le 9 mars 2021 à 08h15", "2021-03-09T08:15:00"),
        // A zone in parentheses, a double slash between date and time.
        ("March 9, 2021 8:15 AM (EST)", "2021-03-09T08:15:00-05:00"),
        ("Tue 09 Mar 2021 // 08:15 GMT", "2021-03-09T08:15:00Z"),
    ]

    @Test func twoDatesRunTogetherMakeNone() {
        #expect(MetadataRules.isoDate("March 9, 2021 Updated June 1, 2021") == nil)
        #expect(MetadataRules.isoDate("9, 2021 Updated June 1") == nil)
        #expect(MetadataRules.dateInText("Published March 9, 2021 Updated June 1, 2021") == "2021-03-09")
        let list = HTMLElement(name: "dl", attributes: [:], text: "Published March 9, 2021 Updated June 1, 2021",
                               inBody: true, isFallback: true)
        #expect(extract([list]).publishedTime == "2021-03-09")
    }

    @Test func aPageInALanguageThatWritesTheDayFirstReadsANumericDateSo() {
        let time = HTMLElement(name: "time", attributes: [:], text: "09/03/2021 às 08h15", inBody: true, isFallback: true)
        #expect(extract([time], lang: "pt-BR").publishedTime == "2021-03-09T08:15:00")
        #expect(extract([time], lang: "en-GB").publishedTime == "2021-03-09T08:15:00")
        #expect(extract([time], lang: "en-US").publishedTime == "2021-09-03T08:15:00")
        #expect(extract([time], lang: "en").publishedTime == "2021-09-03T08:15:00")
        // A second number above 12 is the day whatever the language.
        let us = HTMLElement(name: "time", attributes: [:], text: "3/14/2021", inBody: true, isFallback: true)
        #expect(extract([us], lang: "es").publishedTime == "2021-03-14")
        #expect(extract([Tag.meta(property: "article:published_time", "09/03/2021")], lang: "fr").publishedTime == "2021-03-09")
    }

    @Test func theTableHasEnoughForms() {
        #expect(Self.forms.count >= 60)
    }

    @Test(arguments: forms)
    func eachFormBecomesISO8601(written: String, iso: String) {
        #expect(MetadataRules.isoDate(written) == iso)
    }

    @Test(arguments: [
        "Spring 2021", "4 months ago", "2021", "13/14/2021", "2021-13-09", "2021年13月9日", "32.08.2021",
        "March 9, 2021 8:15 AM XYZ", "Updated 2 hours ago",
    ])
    func nonDatesAreNot(written: String) {
        #expect(MetadataRules.isoDate(written) == nil)
    }
}

/// Dates that templates keep in attributes rather than text.
@Suite struct DateAttributeTests {
    @Test(arguments: [
        ("1615277700", "2021-03-09T08:15:00Z"), ("1615277700000", "2021-03-09T08:15:00Z"),
        ("951782400", "2000-02-29T00:00:00Z"), ("1709164800", "2024-02-29T00:00:00Z"),
    ])
    func epochSecondsAndMillisecondsAreToldApart(value: String, iso: String) {
        #expect(MetadataRules.epochDate(value) == (iso.hasPrefix("2000") ? nil : iso))
    }

    @Test func aPublishTimeAttributeGivesTheDateButADataDateDoesNot() {
        let span = HTMLElement(name: "span", attributes: ["data-publish-time": "1615277700"], text: "4 months ago",
                               inBody: true, isFallback: true)
        #expect(extract([span]).publishedTime == "2021-03-09T08:15:00Z")
        let calendar = HTMLElement(name: "td", attributes: ["data-date": "1615277700"], text: "9", inBody: true, isFallback: true)
        #expect(extract([calendar]).publishedTime == nil)
    }

    @Test func aDataTimestampOnASpanGivesTheDate() {
        let span = HTMLElement(name: "span", attributes: ["data-timestamp": "1615277700000"], text: "4 months ago",
                               inBody: true, isFallback: true)
        let page = extract([span])
        #expect(page.publishedTime == "2021-03-09T08:15:00Z")
        #expect(page.sources?["publishedTime"] == "data-timestamp")
        let origin = HTMLElement(name: "div", attributes: ["data-origindate": "2021-03-09 08:15:00"], inBody: true, isFallback: true)
        #expect(extract([origin]).publishedTime == "2021-03-09T08:15:00")
        let relative = HTMLElement(name: "span", attributes: ["class": "ago"], text: "4 months ago", inBody: true, isFallback: true)
        #expect(extract([relative]).publishedTime == nil)
    }
}

/// Visible dates with a label, outside `<time>`.
@Suite struct LabelledDateTests {
    private func body(_ name: String, _ attributes: [String: String] = [:], _ text: String) -> HTMLElement {
        HTMLElement(name: name, attributes: attributes, text: text, inBody: true, isFallback: true)
    }

    @Test func aLabelledParagraphGivesTheDateAndARelativeTimeDoesNot() {
        let page = extract([body("p", ["class": "meta"], "Updated 4 months ago"),
                            body("p", ["class": "published-date"], "Published: March 9, 2021 8:15 AM EST")])
        #expect(page.publishedTime == "2021-03-09T08:15:00-05:00")
        #expect(page.sources?["publishedTime"] == "labelled date")
        #expect(extract([body("p", [:], "Updated 4 months ago")]).publishedTime == nil)
    }

    @Test func publishedWinsOverReviewedAndCJKLabelsAreRead() {
        let page = extract([body("p", [:], "Reviewed: 12 April 2021"), body("p", [:], "Published: 9 March 2021")])
        #expect(page.publishedTime == "2021-03-09")
        #expect(extract([body("p", [:], "Reviewed: 12 April 2021")]).publishedTime == "2021-04-12")
        #expect(extract([body("p", [:], "公開日：2021年3月9日 10:05")]).publishedTime == "2021-03-09T10:05:00")
    }

    @Test func aRowOfADescriptionListOrTableGivesTheDateAfterItsLabel() {
        let list = body("dl", [:], "タイトル 春の特集 配信開始日 2021年3月9日 出演 山田太郎")
        #expect(extract([list]).publishedTime == "2021-03-09")
        let row = body("tr", [:], "公表日 ２０２１年３月９日")
        #expect(extract([row]).publishedTime == "2021-03-09")
        let english = body("tr", [:], "Published: 9 March 2021 Author Ann Lee")
        #expect(extract([english]).publishedTime == "2021-03-09")
        // A label inside another word, or with no date after it, gives none.
        #expect(extract([body("dl", [:], "Unpublished drafts 9 March 2021")]).publishedTime == nil)
        #expect(extract([body("tr", [:], "Published by Acme Press, 1999 reprint of 2021 titles")]).publishedTime == nil)
    }

    @Test func aChineseLabelGluedToItsDateIsRead() {
        #expect(extract([body("span", [:], "发布时间：2021-03-09 08:15")]).publishedTime == "2021-03-09T08:15:00")
        #expect(extract([body("div", [:], "發佈日期: 2021/03/09")]).publishedTime == "2021-03-09")
    }

    @Test func labelsInDutchGermanItalianAndKoreanAreRead() {
        #expect(extract([body("p", [:], "Gepubliceerd op 9 maart 2021 om 08:15")]).publishedTime == "2021-03-09T08:15:00")
        #expect(extract([body("p", [:], "Stand: 09.03.2021 08:15 Uhr")]).publishedTime == "2021-03-09T08:15:00")
        #expect(extract([body("p", [:], "Pubblicato il 09/03/2021 alle 08:15")], lang: "it").publishedTime == "2021-03-09T08:15:00")
        #expect(extract([body("p", [:], "입력 2021.03.09 08:15")]).publishedTime == "2021-03-09T08:15:00")
    }

    @Test func proseThatMentionsADateIsNoLabel() {
        #expect(extract([body("p", [:], "The bridge was published in plans on March 9, 2021, and opened later that year.")]).publishedTime == nil)
    }
}

/// Which of the page's dates is the published one when they disagree.
@Suite struct PublishedDateAgreementTests {
    private let time = HTMLElement(name: "time", attributes: ["datetime": "2021-03-09T08:15:00Z"], text: "March 9, 2021",
                                   inBody: true, isFallback: true)
    private let jsonLD = Tag.jsonLD(#"{"@type":"NewsArticle","datePublished":"2021-03-09T08:15:00Z","dateModified":"2021-05-01T10:00:00Z"}"#)

    @Test func aLaterMetaDateLosesWhenJSONLDAndTheShownDateAgree() {
        let page = extract([Tag.meta(property: "article:published_time", "2021-05-01T10:00:00Z"), jsonLD, time])
        #expect(page.publishedTime == "2021-03-09T08:15:00Z")
        #expect(page.sources?["publishedTime"] == "json-ld:datePublished")
    }

    @Test func withoutTheShownDateTheMetaDateStands() {
        let page = extract([Tag.meta(property: "article:published_time", "2021-05-01T10:00:00Z"), jsonLD])
        #expect(page.publishedTime == "2021-05-01T10:00:00Z")
        let other = HTMLElement(name: "time", attributes: ["datetime": "2021-05-01"], inBody: true, isFallback: true)
        #expect(extract([Tag.meta(property: "article:published_time", "2021-05-01T10:00:00Z"), jsonLD, other]).publishedTime
            == "2021-05-01T10:00:00Z")
    }
}
