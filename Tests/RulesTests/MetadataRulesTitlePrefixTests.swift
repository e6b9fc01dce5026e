import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

/// A title's first part goes only when it is shown to be the site's name
/// (the site-name affix rule): by a declared name, the host's name, or the same affix after
/// the same separator on another title of a page that names no other site;
/// never by a colon alone. Each page below lost its first part before.
@Suite struct MetadataRulesTitlePrefixTests {
    @Test func aVersionBeforeAColonIsNoSiteNameBesideADashedTitle() {
        // "Rust 1.80" begins both titles, but after different separators:
        // in the <title> it is the text and "Rust Blog" the affix.
        let page = extract(
            [Tag.title("Rust 1.80 - Rust Blog"), Tag.meta(property: "og:title", "Rust 1.80: LazyCell and more")],
            url: "https://blog.rust-lang.org/2024/07/25/Rust-1.80.0.html")
        #expect(page.title == "Rust 1.80: LazyCell and more")
        #expect(page.rawTitle == nil)
        #expect(page.siteName == nil)
    }

    @Test func aKickerSharedByTheTitlesStaysWhenTheSiteIsNamed() {
        let page = extract([
            Tag.title("Breaking: Coast road closed by storm"),
            Tag.meta(property: "og:title", "Breaking: Storm floods the coast"),
            Tag.meta(property: "og:site_name", "Planet"),
        ])
        #expect(page.title == "Breaking: Storm floods the coast")
        #expect(page.rawTitle == nil)
        #expect(page.siteName == "Planet")
    }

    @Test func aTopicBeforeAColonStays() {
        let page = extract([
            Tag.title("C++ tips: std::span - Dev Notes"),
            Tag.meta(property: "og:title", "C++ tips: Prefer std::span for views"),
            Tag.meta(property: "og:site_name", "Dev Notes"),
        ])
        #expect(page.title == "C++ tips: Prefer std::span for views")
        #expect(page.siteName == "Dev Notes")
    }

    @Test func aShiftJISTitleKeepsItsFirstPartWhenTheSiteIsNamed() {
        // 明日の天気：全国は晴れのち雨 / 明日の天気：晴れのち雨、夜は雷 / お天気ナビ, in Shift_JIS.
        let title: [UInt8] = [
            0x96, 0xBE, 0x93, 0xFA, 0x82, 0xCC, 0x93, 0x56, 0x8B, 0x43, 0x81, 0x46, 0x91, 0x53, 0x8D, 0x91, 0x82, 0xCD,
            0x90, 0xB0, 0x82, 0xEA, 0x82, 0xCC, 0x82, 0xBF, 0x89, 0x4A,
        ]
        let ogTitle: [UInt8] = [
            0x96, 0xBE, 0x93, 0xFA, 0x82, 0xCC, 0x93, 0x56, 0x8B, 0x43, 0x81, 0x46, 0x90, 0xB0, 0x82, 0xEA, 0x82, 0xCC,
            0x82, 0xBF, 0x89, 0x4A, 0x81, 0x41, 0x96, 0xE9, 0x82, 0xCD, 0x97, 0x8B,
        ]
        let siteName: [UInt8] = [0x82, 0xA8, 0x93, 0x56, 0x8B, 0x43, 0x83, 0x69, 0x83, 0x72]
        var html = Array("<html><head><meta charset=\"shift_jis\"><title>".utf8) + title
        html += Array("</title><meta property=\"og:title\" content=\"".utf8) + ogTitle
        html += Array("\"><meta property=\"og:site_name\" content=\"".utf8) + siteName
        html += Array("\"></head><body></body></html>".utf8)
        let scanner = HeadScanner(contentType: "text/html")
        scanner.feed(html)
        let page = MetadataRules.extract(from: scanner.finish(), pageURL: "https://tenki.example.jp/forecast/1")
        #expect(page.title == "明日の天気：晴れのち雨、夜は雷")
        #expect(page.rawTitle == nil)
        #expect(page.siteName == "お天気ナビ")
    }

    @Test func aPrefixThatIsTheDeclaredSiteNameStillGoes() {
        let page = extract([Tag.title("Planet: Storm floods the coast"), Tag.meta(property: "og:site_name", "Planet")])
        #expect(page.title == "Storm floods the coast")
        #expect(page.sources?["title"] == "title")
    }

    @Test func aPrefixThatIsTheHostsNameGoes() {
        let page = extract([Tag.title("Planet: Storm floods the coast")], url: "https://www.planet.example/news/1")
        #expect(page.title == "Storm floods the coast")
        #expect(page.siteName == "Planet")
        #expect(page.sources?["siteName"] == "title prefix")
    }

    @Test func aPrefixSharedAfterTheSameSeparatorGoesWhenNoOtherNameIsDeclared() {
        let page = extract([
            Tag.title("Planet: Coast road closed by storm"), Tag.meta(property: "og:title", "Planet: Storm floods the coast"),
        ])
        #expect(page.title == "Storm floods the coast")
        #expect(page.siteName == "Planet")
    }

    @Test func aPrefixSharedAfterAnotherSeparatorStays() {
        let page = extract([
            Tag.title("Planet - Coast road closed by storm"), Tag.meta(property: "og:title", "Planet: Storm floods the coast"),
        ])
        #expect(page.title == "Planet: Storm floods the coast")
        #expect(page.siteName == nil)
    }

    @Test func aHeadlineAloneNeverMakesAPrefixTheSiteName() {
        // The h1 is the rest of the title: that shows the first part is not
        // the headline, not that it is the site's name.
        let page = extract([
            Tag.title("Breaking: Storm floods the coast"),
            HTMLElement(name: "h1", text: "Storm floods the coast", inBody: true, isFallback: true),
        ])
        #expect(page.title == "Breaking: Storm floods the coast")
        #expect(page.siteName == nil)
    }

    @Test func aHeadlineStillShowsASuffixIsTheSite() {
        let page = extract([
            Tag.title("Storm floods the coast | Planet"),
            HTMLElement(name: "h1", text: "Storm floods the coast", inBody: true, isFallback: true),
        ])
        #expect(page.siteName == "Planet")
        #expect(page.sources?["siteName"] == "title suffix")
    }
}
