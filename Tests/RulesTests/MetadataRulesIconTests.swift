import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

@Suite struct MetadataRulesIconTests {
    @Test func largestDeclaredTouchIconWins() {
        let metadata = extract([
            Tag.link(rel: "shortcut icon", "/favicon.ico"),
            Tag.link(rel: "apple-touch-icon", "/touch.png"),
            Tag.link(rel: "apple-touch-icon", "/touch-152.png", sizes: "152x152"),
            Tag.link(rel: "icon", "/icon-32.png", sizes: "32x32"),
            Tag.link(rel: "mask-icon", "/mask.svg"),
        ])
        #expect(metadata.icon?.url == "https://example.com/touch-152.png")
        #expect(metadata.icon?.width == 152)
        #expect(metadata.sources?["icon"] == "link:apple-touch-icon")
        #expect(metadata.icons?.count == 5)
    }

    @Test func touchIconBeatsFaviconAndMaskIconComesLast() {
        let touch = extract([Tag.link(rel: "icon", "/f.png"), Tag.link(rel: "apple-touch-icon-precomposed", "/t.png")])
        #expect(touch.icon?.url == "https://example.com/t.png")
        let mask = extract([Tag.link(rel: "mask-icon", "/m.svg", sizes: "any"), Tag.link(rel: "shortcut icon", "/f.ico")])
        #expect(mask.icon?.url == "https://example.com/f.ico")
        #expect(mask.sources?["icon"] == "link:shortcut icon")
        #expect(extract([Tag.link(rel: "mask-icon", "/m.svg")]).icon?.url == "https://example.com/m.svg")
    }

    @Test func emptyDataIconMeansNoIconAndTileImageIsALastResort() {
        let none = extract([Tag.link(rel: "icon", "data:,")])
        #expect(none.icon?.url == "https://example.com/favicon.ico")
        #expect(none.sources?["icon"] == "favicon.ico fallback")
        let tile = extract([Tag.meta(name: "msapplication-TileImage", "/tile.png"), Tag.link(rel: "mask-icon", "/m.svg")])
        #expect(tile.icon?.url == "https://example.com/tile.png")
        #expect(tile.sources?["icon"] == "msapplication-tileimage")
        let inline = "data:image/png;base64,iVBORw0KGgo="
        #expect(extract([Tag.link(rel: "apple-touch-icon", inline), Tag.link(rel: "icon", "/f.ico")]).icon?.url == "https://example.com/f.ico")
        #expect(extract([Tag.link(rel: "icon", inline)]).icon?.url == inline)
    }

    @Test func fluidIconIsALargeIcon() {
        let metadata = extract([Tag.link(rel: "icon", "/f.png", sizes: "32x32"), Tag.link(rel: "fluid-icon", "/fluid.png")])
        #expect(metadata.icon?.url == "https://example.com/fluid.png")
        #expect(metadata.sources?["icon"] == "link:fluid-icon")
    }

    @Test func sizesWithMultiplicationSignAndSeveralSizes() {
        #expect(MetadataRules.declaredSize("144×144") == 144)
        #expect(MetadataRules.declaredSize("16x16 48X48 32x32") == 48)
        #expect(MetadataRules.declaredSize("any") == Int.max)
        #expect(MetadataRules.declaredSize("bogus") == nil)
    }

    @Test func faviconFallbackWhenNoIconIsDeclared() {
        let metadata = extract([Tag.title("t")], url: "https://sub.example.com:8443/a/b?c")
        #expect(metadata.icon?.url == "https://sub.example.com:8443/favicon.ico")
        #expect(metadata.sources?["icon"] == "favicon.ico fallback")
        #expect(metadata.icons == nil)
        #expect(metadata.richness == .text)
    }

    @Test func duplicateIconsAreListedOnce() {
        let metadata = extract([Tag.link(rel: "icon", "/f.png"), Tag.link(rel: "shortcut icon", "https://example.com/f.png")])
        #expect(metadata.icons?.map(\.url) == ["https://example.com/f.png"])
    }

    @Test func richnessIsTextWithoutAWebPageURL() {
        #expect(extract([], url: "not a url").richness == .text)
    }
}
