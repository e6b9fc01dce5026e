import HTMLHead
import PureTestSupport
import Testing
import Metadata
@testable import Rules

/// The summary from the first real paragraph, when the page declares none.
@Suite struct MetadataRulesSummaryTests {
    private func paragraph(_ text: String, _ attributes: [String: String] = [:]) -> HTMLElement {
        HTMLElement(name: "p", attributes: attributes, text: text, inBody: true, isFallback: true)
    }

    private let prose = "The council voted on Tuesday to extend the tram line to the harbour, a plan first proposed in 1998."

    @Test func noticesBylinesAndShortTextAreSkipped() {
        let page = extract([
            paragraph("We use cookies to improve your experience on our site. By continuing you accept our cookie policy."),
            paragraph("Advertisement"),
            paragraph("By Ann Lee, Transport Correspondent, with reporting from the city hall press room today"),
            paragraph("Ann Lee", ["class": "byline"]),
            paragraph("Updated 5 May"),
            paragraph(prose),
        ])
        #expect(page.summary == prose)
        #expect(page.sources?["summary"] == "first paragraph")
    }

    @Test func aDeclaredDescriptionWins() {
        #expect(extract([Tag.meta(name: "description", "Declared."), paragraph(prose)]).summary == "Declared.")
    }

    @Test func aLongParagraphEndsAtASentenceBoundary() {
        let sentence = "This sentence is part of a long opening paragraph about the tram line. "
        let long = String(repeating: sentence, count: 12)
        let summary = extract([paragraph(long)]).summary ?? ""
        #expect(summary.count <= MetadataRules.maximumSummaryLength)
        #expect(summary.hasSuffix("tram line."))
        #expect(long.hasPrefix(summary))
    }

    @Test func aLongParagraphWithoutSentencesEndsAtAWord() {
        let long = String(repeating: "word ", count: 200)
        let summary = extract([paragraph(long)]).summary ?? ""
        #expect(summary.hasSuffix("word…"))
        #expect(summary.count <= MetadataRules.maximumSummaryLength + 1)
    }

    /// ASCII text is cut on its bytes: the same cut as on `Character`s, for
    /// sentences of random words and stops, short and long, spaced or not.
    @Test func theASCIICutIsTheCharacterCut() {
        var random = SeededGenerator(seed: SeededGenerator.seed(default: 500))
        let pieces = ["word", "a", "tram", "line.", "stop!", "why?", "x.y", " ", "  ", ".", "harbour,", "1998."]
        for round in 0..<300 {
            var text = ""
            let target = Int.random(in: 0...700, using: &random)
            while text.utf8.count < target { text += (pieces.randomElement(using: &random) ?? "") + (Bool.random(using: &random) ? " " : "") }
            #expect(MetadataRules.asciiSummaryPrefix(text) == MetadataRules.characterSummaryPrefix(text), "round \(round): \(text)")
        }
    }
}
