@testable import LinkPeekServer
import Testing

/// Tier 1: Markdown reference links — definitions found per line,
/// references resolved on hover, anywhere in the document.
@Suite struct ReferenceLinksTests {
    private func definition(_ line: String) -> String? {
        let bytes = Array(line.utf8)
        return ReferenceLinks.definitionLabel(in: bytes, first: URLDetector.matches(in: bytes).first)
    }

    @Test func definitions() {
        #expect(definition("[docs]: https://example.com/docs") == "docs")
        #expect(definition("   [The  Docs]:\thttps://example.com/ \"Title\"") == "the docs")
        #expect(definition("[docs]: <https://example.com/docs>") == "docs")
        #expect(definition("    [docs]: https://example.com/") == nil)  // four spaces: code
        #expect(definition("[docs]: see https://example.com/") == nil)
        #expect(definition("[docs](https://example.com/)") == nil)
        #expect(definition("text [docs]: https://example.com/") == nil)
    }

    /// (line, offset hovered, the label found and the text it spans, or nil).
    static let references: [(String, Int, (String, String)?)] = [
        ("see [the docs][docs] now", 6, ("docs", "[the docs][docs]")),
        ("see [the docs][docs] now", 16, ("docs", "[the docs][docs]")),
        ("see [Docs][] now", 5, ("docs", "[Docs][]")),
        ("see [Docs] now", 6, ("docs", "[Docs]")),
        ("see [docs] now", 1, nil),
        ("see [text](https://x.example) now", 6, nil),
        ("[docs]: https://example.com/", 2, nil),
        ("empty [] here", 7, nil),
        ("a [b] [c][d] e", 8, ("d", "[c][d]")),
    ]

    @Test func referencesAtAnOffset() {
        for (line, offset, expected) in Self.references {
            let bytes = Array(line.utf8)
            let found = ReferenceLinks.reference(at: offset, in: bytes).map { ($0.label, String(decoding: bytes[$0.range], as: UTF8.self)) }
            #expect(found?.0 == expected?.0 && found?.1 == expected?.1, "\(line) @\(offset): \(String(describing: found))")
        }
    }

    @Test func hoverResolvesReferencesAcrossTheDocument() {
        var document = TextDocument(text: """
            Read [the guide][guide] or [Guide][] or [guide], or [missing][nope].

            [guide]: https://example.com/guide "The guide"
            """)
        let full = document.hoverTarget(atLine: 0, column: 8, encoding: .utf16)
        #expect(full?.url == "https://example.com/guide")
        #expect(full.map { [$0.line, $0.start, $0.end] } == [0, 5, 23])
        #expect(document.hoverTarget(atLine: 0, column: 30, encoding: .utf16)?.url == "https://example.com/guide")
        #expect(document.hoverTarget(atLine: 0, column: 42, encoding: .utf16)?.url == "https://example.com/guide")
        #expect(document.hoverTarget(atLine: 0, column: 56, encoding: .utf16) == nil)
        // The definition's own URL is an ordinary link.
        #expect(document.hoverTarget(atLine: 2, column: 12, encoding: .utf16)?.url == "https://example.com/guide")
        // Editing the definition moves every reference to the new URL.
        let start = document.location(line: 2, column: 29, encoding: .utf16)
        let end = document.location(line: 2, column: 34, encoding: .utf16)
        document.replace(from: start, to: end, with: "manual")
        #expect(document.hoverTarget(atLine: 0, column: 8, encoding: .utf16)?.url == "https://example.com/manual")
    }
}
