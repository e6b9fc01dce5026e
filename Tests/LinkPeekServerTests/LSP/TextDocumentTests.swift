@testable import LinkPeekServer
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

    @Test func documentsOverTheLimitKeepNoText() {
        var store = DocumentStore()
        let big = String(repeating: "https://example.com/ ", count: DocumentStore.maxDocumentBytes / 21 + 1)
        let notes = store.open(uri: "file:///big", text: big)
        #expect(notes.count == 1)
        #expect(store["file:///big"] == nil)
        // A full-text change under the limit brings it back.
        _ = store.change(uri: "file:///big", range: nil, text: "https://example.com/", encoding: .utf16)
        #expect(store["file:///big"]?.lines[0].links.count == 1)
    }
}
