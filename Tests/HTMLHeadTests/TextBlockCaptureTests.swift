import Testing
@testable import HTMLHead

/// Text blocks (a `<div>`'s own text with `<br>`s) and label runs (an
/// element whose first text starts with a caller's label): what is kept.
@Suite struct TextBlockCaptureTests {
    private let prose = "The harbour bridge reopened to traffic on Monday after two years of repairs, officials said."

    private func divs(_ body: String, chunk: Int? = nil) -> [HTMLElement] {
        scan("<html><head><title>t</title></head><body>" + body, chunk: chunk, bodyRecords: BodyRecords(apart: .nav)).elements
            .filter { $0.isFallback && $0.name == "div" }
    }

    /// Each line's words parted by single spaces.
    private func lines(_ text: String?) -> [String] {
        (text ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
    }

    @Test func aDivsOwnTextKeepsABreakAsALineEndAndLeavesChildBlocksOut() {
        let body = "<div class=outer><div class=story>\n \(prose)<br>\n<b>Second</b> line<div>Share</div> end</div></div>"
        for chunk in [nil, 9] {
            let kept = divs(body, chunk: chunk)
            #expect(kept.count == 1, "chunk \(chunk ?? 0)")
            #expect(lines(kept.first?.text) == [prose, "Second line end"], "chunk \(chunk ?? 0)")
            #expect(kept.first?.attributes.isEmpty == true)
        }
    }

    @Test func wrappersShortTextAndTextWithoutABreakLeaveNoRecord() {
        let body = "<div><div><p>\(prose)</p></div></div><div>Menu<br>Home</div><div>\(prose)</div>"
        #expect(divs(body).isEmpty)
        #expect(scan("<body>" + body).elements.filter(\.isFallback).map(\.name) == ["p"])
    }

    @Test func hiddenTextAndNavigationAreLeftOut() {
        #expect(divs("<div hidden>\(prose)<br>\(prose)</div>").isEmpty)
        #expect(divs("<nav><div>\(prose)<br>\(prose)</div></nav>").isEmpty)
    }

    @Test func aFewAreKeptThenTheGateDropsBareDivsAgain() {
        let block = "<div>\(prose)<br>more</div>"
        let kept = divs(String(repeating: block, count: 5), chunk: 11)
        #expect(kept.count == ElementCollector.FallbackLimits().textBlocks)
    }

    @Test func labelRunsAreRecordedFromTheirFirstText() {
        let words = BodyRecords(labels: ["by", "published", "公開"])
        let html = """
            <html><head><title>t</title></head><body>
            <div class="x1"><span class="a9">By <span class="b2">Ann Lee</span></span></div>
            <span class="c3">Bytes and more</span><div class="d4"><i>x</i> By later</div>
            <div><div>Published:
            March 9, 2021</div></div><p class="e5">公開 2021年3月9日</p>
            """
        for chunk in [nil, 7] {
            let kept = scan(html, chunk: chunk, bodyRecords: words).elements.filter(\.isFallback)
            #expect(kept.map(\.name) == ["span", "div", "p"], "chunk \(chunk ?? 0)")
            #expect(kept.map(\.text) == ["By Ann Lee", "Published: March 9, 2021", "公開 2021年3月9日"])
        }
    }
}
