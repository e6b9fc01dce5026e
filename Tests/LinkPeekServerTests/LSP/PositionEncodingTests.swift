@testable import LinkPeekServer
import Testing

/// Tier 1: columns in UTF-8, UTF-16 and UTF-32 on lines with emoji, CJK
/// and combining marks before the URL.
@Suite struct PositionEncodingTests {
    /// (prefix before the URL, its length in UTF-8 bytes, UTF-16 units, scalars).
    static let prefixes: [(String, Int, Int, Int)] = [
        ("plain ", 6, 6, 6),
        ("🙂 ", 5, 3, 2),  // U+1F642: 4 bytes, a surrogate pair, one scalar
        ("日本語 ", 10, 4, 4),  // three 3-byte CJK scalars
        ("e\u{301}\u{327} ", 6, 4, 4),  // e + two combining marks: one grapheme, three scalars
        ("👩‍💻 x ", 14, 8, 6),  // a ZWJ sequence: 4+3+4 bytes, 2+1+2 units, 3 scalars
    ]

    @Test func urlStartsAtTheColumnOfEachEncoding() {
        for (prefix, utf8, utf16, utf32) in Self.prefixes {
            let line = prefix + "https://example.com/x tail"
            let document = TextDocument(text: line)
            for (encoding, column) in [(PositionEncoding.utf8, utf8), (.utf16, utf16), (.utf32, utf32)] {
                guard let found = document.link(atLine: 0, column: column, encoding: encoding) else {
                    Issue.record("no link at \(column) in \(encoding) for \(prefix)")
                    continue
                }
                #expect(found.match.url == "https://example.com/x")
                let range = document.range(of: found.match, line: 0, encoding: encoding)
                #expect(range.start == column, "\(encoding) \(prefix)")
                #expect(range.end == column + 21, "\(encoding) \(prefix)")
                // One before the URL is not in it.
                if column > 0 {
                    #expect(document.link(atLine: 0, column: column - 1, encoding: encoding) == nil)
                }
            }
        }
    }

    @Test func aColumnInsideACharacterMeansItsStart() {
        let line = Array("🙂x".utf8)
        #expect(PositionEncoding.utf16.byteOffset(ofColumn: 1, in: line) == 0)
        #expect(PositionEncoding.utf16.byteOffset(ofColumn: 2, in: line) == 4)
        #expect(PositionEncoding.utf8.byteOffset(ofColumn: 2, in: line) == 0)
        #expect(PositionEncoding.utf32.byteOffset(ofColumn: 1, in: line) == 4)
        // Past the end: the end of the line.
        #expect(PositionEncoding.utf16.byteOffset(ofColumn: 99, in: line) == 5)
    }

    @Test func negotiationTakesTheClientsFirstSupportedChoice() {
        #expect(PositionEncoding.negotiate(offered: nil) == .utf16)
        #expect(PositionEncoding.negotiate(offered: []) == .utf16)
        #expect(PositionEncoding.negotiate(offered: ["utf-8", "utf-16"]) == .utf8)
        #expect(PositionEncoding.negotiate(offered: ["utf-7", "utf-32"]) == .utf32)
        #expect(PositionEncoding.negotiate(offered: ["utf-16", "utf-8"]) == .utf16)
    }
}
