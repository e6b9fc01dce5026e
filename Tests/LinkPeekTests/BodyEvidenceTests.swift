import HTMLHead
import LinkPeekTestSupport
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

    @Test func signsOfTheRulesLaterBylinesAndDates() {
        #expect(found(["<span class=\"Writer-name\">Ann Lee</span>"]))
        #expect(found(["<a data-testid=\"author-link\" href=\"/u/ann\">Ann</a>"]))
        #expect(found(["<span data-timestamp=\"1615277700\">Mar 9</span>"]))
        #expect(found(["<div data-time=\"1615277700000\"></div>"]))
        #expect(found(["<p data-origindate=\"2021-03-09\">9 March</p>"]))
    }

    @Test func plainTextAndMarkupShowNone() {
        #expect(!found(["<p>lorem ipsum dolor sit amet</p>", "<div class=\"nav\"><a href=\"/about\">About</a></div>"]))
    }

    @Test func aSignSplitAcrossChunksIsFound() {
        #expect(found(["<p>text</p><span item", "prop=\"author\">Ann</span>"]))
        #expect(found(["<p>text</p><div class=\"by", "line\">"]))
    }

    /// The filtered search finds exactly what comparing every position with
    /// every marker finds: random text built of marker pieces, fed in random
    /// chunks, marker at any offset or none.
    @Test func theFilterMissesNoMarker() {
        var random = SeededGenerator(seed: SeededGenerator.seed(default: 10_2026))
        let pieces = BodyEvidence.markers.flatMap { marker in
            [marker, Array(marker.dropLast()), Array(marker.dropFirst())]
        } + ["<p>", " ", "a", "the ", "\n", "é"].map { Array($0.utf8) }
        for round in 0..<400 {
            var text: [UInt8] = []
            for _ in 0..<Int.random(in: 0...40, using: &random) { text += pieces.randomElement(using: &random) ?? [] }
            let expected = BodyEvidence.markers.contains { marker in
                text.count >= marker.count && (0...(text.count - marker.count)).contains { text[$0..<($0 + marker.count)].elementsEqual(marker) }
            }
            var evidence = BodyEvidence()
            var held: [UInt8] = []
            var found = false
            while held.count < text.count, !found {
                let next = min(text.count, held.count + Int.random(in: 1...9, using: &random))
                held += text[held.count..<next]
                found = evidence.search(held)
            }
            #expect(found == expected, "round \(round): \(String(decoding: text, as: UTF8.self))")
        }
    }

    private func found(_ html: String, lacking missing: DeclaredFields, chunk: Int = .max) -> Bool {
        var evidence = BodyEvidence()
        evidence.lookFor(lacking: DeclaredFields.everything.subtracting(missing))
        var held: [UInt8] = []
        let bytes = Array(html.utf8)
        while held.count < bytes.count {
            held += bytes[held.count..<min(bytes.count, held.count + chunk)]
            if evidence.search(held) { return true }
        }
        return false
    }

    /// A byline or date label alone in its element (hashed class names, no
    /// marker) is a sign of the field the page left out, in any chunking.
    @Test func aLoneLabelIsASignOfWhatIsMissing() {
        let bylines = [
            "<div class=\"x7f3a\"><span>By </span><span>Ann Lee</span></div>",
            "<div class=\"q\"><span>\n    Written by\n  </span> <a href=\"/people/ann\">Ann Lee</a></div>",
            "<p class=\"c1\">By <a href=\"/people/ann\">Ann Lee</a></p>",
            "<span>BY&nbsp;</span><b>Ann Lee</b>",
            "<span>Por:</span> <span>Ana Ruiz</span>",
            "<span>作者：</span><span>李安</span>",
        ]
        let dates = [
            "<p class=\"q1\"><span>Published:</span> <span>March 9, 2021</span></p>",
            "<dl><dt>公開：</dt><dd>2021年3月9日</dd></dl>",
            "<span>Last updated</span><span>9 March 2021</span>",
        ]
        for html in bylines {
            for chunk in [1, 2, 3, 5, 7, 64, Int.max] {
                #expect(found(html, lacking: .author, chunk: chunk), "\(html) in chunks of \(chunk)")
            }
            #expect(!found(html, lacking: .published), "\(html): a byline is no sign of a date")
            #expect(!found(html, lacking: []), "\(html): nothing missing")
        }
        for html in dates {
            for chunk in [1, 2, 3, 5, 7, 64, Int.max] {
                #expect(found(html, lacking: .published, chunk: chunk), "\(html) in chunks of \(chunk)")
            }
            #expect(!found(html, lacking: .author), "\(html): a date label is no sign of a byline")
        }
    }

    /// A label that starts prose or a word, or sits in an attribute, is none.
    @Test func labelsThatStartTextAreNoSign() {
        for html in [
            "<p>By 2030, the line will reach the harbour.</p>",
            "<span>Bystanders</span><span>Byte order</span>",
            "<a title=\"By\">x</a><p>Published work of the council</p>",
            "<p>Updated maps<br>are posted weekly</p>",
            "<h2>Stand up</h2>",
        ] {
            #expect(!found(html, lacking: [.author, .published]), "\(html)")
        }
    }

    private func document(_ html: String) -> HeadDocument {
        let scanner = HeadScanner(contentType: "text/html; charset=utf-8", bodyRecords: MetadataRules.bodyRecords)
        scanner.feed(Array(html.utf8))
        return scanner.finish()
    }

    /// Past the budget: twice it for any page; for an article, 1 MiB until
    /// twice the budget is read, then only when what was read gave no
    /// author or no date (asked once).
    @Test func anArticleIsSearchedFurtherOnlyWhileItGaveNoBylineOrDate() {
        let budget = 64 * 1024
        var page = BodyEvidence()
        #expect(page.reach(budget: budget, article: false, read: 300 * 1024) { HeadDocument() } == 128 * 1024)
        let bare = document("<html><head><title>T</title></head><body><p>Text</p></body></html>")
        var article = BodyEvidence()
        #expect(article.reach(budget: budget, article: true, read: 100 * 1024) { bare } == 1024 * 1024)
        #expect(article.reach(budget: budget, article: true, read: 128 * 1024) { bare } == 1024 * 1024)
        let signed = document("""
            <html><head><title>T</title></head><body><article><span class="byline">By Ann Lee</span>
            <time datetime="2021-03-09">9 March</time><p>Text</p></article></body></html>
            """)
        var found = BodyEvidence()
        #expect(found.reach(budget: budget, article: true, read: 128 * 1024) { signed } == 128 * 1024)
        // Decided once: a later document does not reopen it.
        found.restart()
        #expect(found.reach(budget: budget, article: true, read: 200 * 1024) { bare } == 128 * 1024)
        #expect(article.reach(budget: budget, article: true, read: 200 * 1024) { signed } == 1024 * 1024)
    }
}
