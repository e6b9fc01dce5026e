@testable import LinkPeekServer
import LinkPeekTestSupport
import Testing

/// Tier 1: incremental sync — edits splice the right bytes, keep line
/// breaks, and rescan only the lines they touch.
@Suite struct TextDocumentTests {
    private func edit(_ text: String, _ start: (Int, Int), _ end: (Int, Int), _ new: String, _ encoding: PositionEncoding = .utf16) -> TextDocument {
        var document = TextDocument(text: text)
        let from = document.location(line: start.0, column: start.1, encoding: encoding)
        let to = document.location(line: end.0, column: end.1, encoding: encoding)
        document.replace(from: from, to: to, with: new)
        return document
    }

    @Test func editsSpliceText() {
        #expect(edit("hello world", (0, 5), (0, 5), ",").text == "hello, world")
        #expect(edit("a\nb\nc", (0, 1), (2, 0), "").text == "ac")
        #expect(edit("a\nb", (1, 1), (1, 1), "\nnew").text == "a\nb\nnew")
        #expect(edit("a\r\nb\r\n", (1, 0), (2, 0), "").text == "a\r\n")
        #expect(edit("one\ntwo", (0, 3), (0, 3), "\r\n").text == "one\r\n\ntwo")
        #expect(edit("x", (5, 0), (9, 9), "!").text == "x!")  // past the end: appended
        #expect(edit("🙂ab", (0, 2), (0, 3), "A").text == "🙂Ab")  // UTF-16 column 2 is after the emoji
        #expect(edit("🙂ab", (0, 1), (0, 2), "A", .utf32).text == "🙂Ab")
        #expect(edit("🙂ab", (0, 4), (0, 5), "A", .utf8).text == "🙂Ab")
    }

    @Test func lineCountAndByteCountFollowEdits() {
        let document = edit("a\nb\nc\n", (1, 0), (1, 1), "x\ny\nz")
        #expect(document.text == "a\nx\ny\nz\nc\n")
        #expect(document.lines.count == 6)
        #expect(document.byteCount == document.text.utf8.count)
    }

    @Test func typingIntoAURLRescansItsLine() {
        var document = TextDocument(text: "first https://example.com/a\nsecond line\nthird https://example.org/")
        let at = document.location(line: 0, column: 27, encoding: .utf16)
        document.replace(from: at, to: at, with: "bc")
        #expect(document.lines[0].links.map(\.url) == ["https://example.com/abc"])
        // Breaking the URL with a space ends it there.
        let space = document.location(line: 0, column: 25, encoding: .utf16)
        document.replace(from: space, to: space, with: " ")
        #expect(document.lines[0].links.map(\.url) == ["https://example.com"])
        // A new URL typed on a plain line is found; the other lines keep theirs.
        let end = document.location(line: 1, column: 11, encoding: .utf16)
        document.replace(from: end, to: end, with: " www.example.net")
        #expect(document.lines.flatMap(\.links).map(\.url) == [
            "https://example.com", "https://www.example.net", "https://example.org/",
        ])
    }

    @Test func joiningLinesCanMakeOneURL() {
        var document = TextDocument(text: "https://example.com/a\nbc")
        let start = document.location(line: 0, column: 21, encoding: .utf16)
        let end = document.location(line: 1, column: 0, encoding: .utf16)
        document.replace(from: start, to: end, with: "")
        #expect(document.lines.count == 1)
        #expect(document.lines[0].links.map(\.url) == ["https://example.com/abc"])
    }

    @Test func theOldestDocumentIsForgottenPastTheCount() {
        var store = DocumentStore(limits: .init(maxDocuments: 10))
        for index in 0...10 {
            let notes = store.open(uri: "file:///\(index)", text: "https://example.com/\(index)")
            #expect(notes.isEmpty == (index < 10))
        }
        #expect(store["file:///0"] == nil)
        #expect(store["file:///1"] != nil)
        #expect(store.entries.count == 10)
        // Reopening an open document does not count twice; closing frees a place.
        #expect(store.open(uri: "file:///5", text: "again").isEmpty)
        store.close(uri: "file:///5")
        #expect(store.open(uri: "file:///new", text: "x").isEmpty)
    }

    @Test func tooManyLinesOrTooManyBytesInAllAreBounded() {
        var store = DocumentStore(limits: .init(maxDocumentBytes: 1500, maxLines: 50, maxTotalBytes: 3000))
        let newlines = String(repeating: "\n", count: 51)
        #expect(store.open(uri: "file:///lines", text: newlines).count == 1)
        #expect(store["file:///lines"] == nil)
        #expect(store.totalBytes == 0)
        // Texts add up to at most maxTotalBytes: the oldest are forgotten.
        let text = String(repeating: "https://example.com/ ", count: 40)  // 840 bytes
        for index in 0..<3 { #expect(store.open(uri: "file:///\(index)", text: text).isEmpty) }
        #expect(store.open(uri: "file:///one-more", text: text).count == 1)
        #expect(store.entries["file:///lines"] != nil)  // kept: forgetting it would free nothing
        #expect(store["file:///0"] == nil)
        #expect(store["file:///one-more"] != nil)
        #expect(store.totalBytes == 3 * 840)
        // An edit that grows a document past the total forgets the oldest other one.
        _ = store.change(uri: "file:///one-more", range: ((0, 0), (0, 0)), text: String(repeating: "x", count: 100), encoding: .utf8)
        #expect(store.totalBytes == 2 * 840 + 940)
        #expect(store["file:///1"] != nil)
        _ = store.change(uri: "file:///2", range: ((0, 0), (0, 0)), text: String(repeating: "y", count: 500), encoding: .utf8)
        #expect(store["file:///1"] == nil)
        #expect(store.totalBytes == 1340 + 940)
        // Growing past the document limit drops its text.
        _ = store.change(uri: "file:///2", range: ((0, 0), (0, 0)), text: String(repeating: "z", count: 200), encoding: .utf8)
        #expect(store["file:///2"] == nil)
        #expect(store.totalBytes == 940)
        store.close(uri: "file:///one-more")
        #expect(store.totalBytes == 0)
    }

    @Test func documentsOverTheLimitKeepNoText() {
        var store = DocumentStore(limits: .init(maxDocumentBytes: 1000))
        let big = String(repeating: "https://example.com/ ", count: 1000 / 21 + 1)
        let notes = store.open(uri: "file:///big", text: big)
        #expect(notes.count == 1)
        #expect(store["file:///big"] == nil)
        // A full-text change under the limit brings it back.
        _ = store.change(uri: "file:///big", range: nil, text: "https://example.com/", encoding: .utf16)
        #expect(store["file:///big"]?.lines[0].links.count == 1)
    }
}

/// Tier 1, seeded and counted (`LINKPEEK_FUZZ_SCALE` for more rounds): random edits applied incrementally give the
/// same lines and links as a fresh scan of the same text (the per-line
/// index never drifts), in every encoding.
@Suite struct TextDocumentEditFuzzTests {
    static let fragments = [
        "a", "b", " ", "\n", "\r\n", "\r", "🙂", "日本", "e\u{301}", "https://x.io/", "www.ex.com", "http://",
        "(", ")", "[", "]", ".", ",", "'", "\"", "<", ">", "w", "h", "ttps://", "é", "[r]: ", "]:", "[r]",
    ]

    @Test func incrementalEditsMatchAFreshScan() {
        let seed = SeededGenerator.seed(default: 20_261_123)
        var random = SeededGenerator(seed: seed)
        // By count, not by clock: the same rounds on every machine.
        for round in 0..<SeededGenerator.rounds(default: 40) {
            let encoding = PositionEncoding.allCases[round % 3]
            var model: [UInt8] = []
            let initial = (0..<Int.random(in: 0...30, using: &random)).map { _ in Self.fragments.randomElement(using: &random)! }.joined()
            model = Array(initial.utf8)
            var document = TextDocument(text: initial)
            for step in 0..<40 {
                let a = (Int.random(in: 0...document.lines.count + 1, using: &random), Int.random(in: 0...12, using: &random))
                let b = (Int.random(in: 0...document.lines.count + 1, using: &random), Int.random(in: 0...12, using: &random))
                let insert = (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.fragments.randomElement(using: &random)! }.joined()
                let from = document.location(line: a.0, column: a.1, encoding: encoding)
                let to = document.location(line: b.0, column: b.1, encoding: encoding)
                let (x, y) = [absolute(from, in: document), absolute(to, in: document)].sorted().pair
                model.replaceSubrange(x..<y, with: Array(insert.utf8))
                document.replace(from: from, to: to, with: insert)
                let fresh = TextDocument(text: String(decoding: model, as: UTF8.self))
                let context = "seed \(seed) round \(round) step \(step) \(encoding)"
                #expect(document.text == String(decoding: model, as: UTF8.self), "\(context)")
                #expect(document.byteCount == model.count, "\(context)")
                #expect(document.lines.map(\.bytes) == fresh.lines.map(\.bytes), "\(context)")
                #expect(document.lines.map(\.links) == fresh.lines.map(\.links), "\(context)")
                #expect(document.lines.map(\.definition) == fresh.lines.map(\.definition), "\(context)")
                if document.text != String(decoding: model, as: UTF8.self) { return }
            }
        }
    }

    private func absolute(_ location: TextDocument.Location, in document: TextDocument) -> Int {
        document.lines[..<location.line].reduce(0) { $0 + $1.byteCount } + location.offset
    }
}

private extension Array where Element == Int {
    var pair: (Int, Int) { (self[0], self[1]) }
}
