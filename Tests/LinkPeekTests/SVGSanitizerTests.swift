import LinkPeekTestSupport
import Testing
@testable import LinkPeek

@Suite struct SVGSanitizerTests {
    func sanitized(_ text: String) -> String? {
        guard case .success(let bytes) = SVGSanitizer.sanitize(Array(text.utf8)) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    func refusal(_ text: String) -> SVGSanitizer.Refusal? {
        guard case .failure(let refusal) = SVGSanitizer.sanitize(Array(text.utf8)) else { return nil }
        return refusal
    }

    @Test func externalHrefsBecomeFragments() {
        #expect(sanitized(##"<image href="http://x/a.png"/>"##) == ##"<image href="#"/>"##)
        #expect(sanitized(##"<image xlink:href = 'file:///etc/passwd'/>"##) == ##"<image xlink:href = '#'/>"##)
        #expect(sanitized(##"<image HREF="/etc/passwd"/>"##) == ##"<image HREF="#"/>"##)
        #expect(sanitized(##"<g xml:base="http://x/"><use href="b.svg#s"/></g>"##) == ##"<g xml:base="#"><use href="#"/></g>"##)
        #expect(sanitized(##"<?xml-stylesheet href="http://x/s.css"?>"##) == ##"<?xml-stylesheet href="#"?>"##)
        #expect(sanitized(##"<image href="data:image/svg+xml;base64,PHN2Zz4="/>"##) == ##"<image href="#"/>"##)
        #expect(sanitized(##"<image href="&#104;ttp://x/a.png"/>"##) == ##"<image href="#"/>"##)
    }

    @Test func fragmentsAndRasterDataURLsStay() {
        let kept = [
            ##"<use href="#shape"/>"##,
            ##"<image href="data:image/png;base64,iVBORw0KGgo="/>"##,
            ##"<rect fill="url(#gradient)"/>"##, ##"<a hreflang="en">x</a>"##,
        ]
        for text in kept { #expect(sanitized(text) == text) }
        // Spaces before a kept value are dropped (XML would keep them; librsvg trims them).
        #expect(sanitized(##"<use xlink:href=" #shape"/>"##) == ##"<use xlink:href="#shape"/>"##)
    }

    @Test func cssReferencesAreNeutralised() {
        #expect(sanitized(##"<style>@import url("http://x/a.css"); r{fill:url(http://x/p.svg#g)}</style>"##)
                == ##"<style>@x-ignored url(#); r{fill:url(#)}</style>"##)
        #expect(sanitized(##"<rect style="fill: URL( 'file:///x' )"/>"##) == ##"<rect style="fill: url(#)"/>"##)
        #expect(sanitized(##"<rect fill="url(http://x/p.svg#g)"/>"##) == ##"<rect fill="url(#)"/>"##)
    }

    @Test func entitiesAndEscapesAreRefused() {
        #expect(refusal(##"<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>"##) == .externalEntity)
        #expect(refusal(##"<!DOCTYPE svg [<!ENTITY x PUBLIC "a" "http://x/e">]><svg/>"##) == .externalEntity)
        #expect(refusal(##"<!DOCTYPE svg [<!ENTITY % p SYSTEM "http://x/p.dtd"> %p;]><svg/>"##) == .parameterEntity)
        #expect(refusal(##"<!DOCTYPE svg [<!ENTITY a "x"><!ENTITY b "&a;&a;">]><svg/>"##) == .nestedEntity)
        #expect(refusal(##"<svg><style>r{fill:\75 rl(http://x)}</style></svg>"##) == .cssEscape)
        #expect(refusal(##"<svg><rect style="fill:\75 rl(http://x)"/></svg>"##) == .cssEscape)
        let many = (0..<65).map { "<!ENTITY e\($0) \"v\">" }.joined()
        #expect(refusal("<!DOCTYPE svg [\(many)]><svg/>") == .tooManyEntities)
    }

    @Test func plainInternalEntitiesAndPublicDoctypesPass() {
        let illustrator = ##"<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [<!ENTITY ns "http://www.w3.org/2000/svg">]><svg xmlns="&ns;"/>"##
        #expect(sanitized(illustrator) == illustrator)
        let plain = ##"<!DOCTYPE svg [<!ENTITY w "100%"><!ENTITY q "a&#38;b">]><svg width="&w;"/>"##
        #expect(sanitized(plain) == plain)
    }

    /// Random sequences of the keywords the scanner looks for: no trap, and
    /// an `href="http` written plainly never survives.
    @Test func randomInputNeverTraps() {
        let seed = SeededGenerator.seed(default: 0x5EED_1234)
        var generator = SeededGenerator(seed: seed)
        let pieces = ["href", "=", "\"", "'", "url(", "@import", "<!ENTITY", "SYSTEM", "%", "&", "<style", "</style",
                      "style", "\\", "##", "data:image/", "http://x", " ", ">", "<", "xlink:"]
        for _ in 0..<2000 {
            let count = Int.random(in: 1...30, using: &generator)
            let text = (0..<count).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }.joined()
            if let output = sanitized(text) {
                #expect(!output.contains(#" href="http"#) && !output.contains("url(http"), "seed \(seed): \(text)")
            }
        }
    }
}
