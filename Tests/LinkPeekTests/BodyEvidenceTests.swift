import Testing
@testable import LinkPeek

/// The byte search that decides whether a body held after a complete head is
/// parsed: signs of a byline, microdata, JSON-LD, a date or a player.
@Suite struct BodyEvidenceTests {
    private func found(_ chunks: [String]) -> Bool {
        var evidence = BodyEvidence()
        var held: [UInt8] = []
        for chunk in chunks {
            held += Array(chunk.utf8)
            if evidence.search(held) { return true }
        }
        return false
    }

    @Test func signsOfAMissingField() {
        #expect(found(["<div class=\"byline\">By Ann</div>"]))
        #expect(found(["<a rel=\"Author\" href=\"/u/ann\">Ann</a>"]))
        #expect(found(["<span itemprop=\"name\">Ann</span>"]))
        #expect(found(["<script type=\"application/ld+json\">{}</script>"]))
        #expect(found(["<time datetime=\"2024-05-01\">May 1</time>"]))
        #expect(found(["<audio controls src=\"/e.m4a\"></audio>"]))
        #expect(found(["<a href=\"/episodes/12.mp3\">Download</a>"]))
    }

    @Test func plainTextAndMarkupShowNone() {
        #expect(!found(["<p>lorem ipsum dolor sit amet</p>", "<div class=\"nav\"><a href=\"/about\">About</a></div>"]))
    }

    @Test func aSignSplitAcrossChunksIsFound() {
        #expect(found(["<p>text</p><span item", "prop=\"author\">Ann</span>"]))
        #expect(found(["<p>text</p><div class=\"by", "line\">"]))
    }
}
