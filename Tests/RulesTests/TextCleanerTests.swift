import Testing
import Metadata
@testable import Rules

/// White space in text values: runs become one space, the ends are trimmed,
/// and values that need nothing come back as they are.
@Suite struct TextCleanerTests {
    @Test(arguments: [
        ("Already clean", "Already clean"),
        ("  padded  ", "padded"),
        ("a \n\t b", "a b"),
        ("two  spaces", "two spaces"),
        ("no\u{00A0}break", "no break"),
        ("zero\u{200B}width", "zero width"),
        ("café  au lait", "café au lait"),
        ("x", "x"),
    ])
    func runsOfWhiteSpaceBecomeOneSpace(raw: String, expected: String) {
        #expect(TextCleaner.collapsingWhitespace(raw) == expected)
    }

    /// What the byte loop gives is what splitting the scalars at white
    /// space (and U+200B) and joining with one space gives.
    @Test(arguments: [
        "a", " a  b ", "\t\ta\r\nb\u{0B}c\u{0C}", "café\u{00A0}\u{00A0}au\u{2003}lait", "x\u{200B}\u{200B}y",
        "e\u{301} \u{301}", "日本 語\u{3000}テキスト", "a\u{85}b", "👩‍👩‍👧  ok", "\u{2028}lines\u{2029}", "tab\tend\t",
    ])
    func collapsingIsSplitAndJoin(raw: String) {
        let words = raw.unicodeScalars.split { $0.properties.isWhitespace || $0 == "\u{200B}" }
            .map { String(String.UnicodeScalarView($0)) }
        #expect(TextCleaner.collapsingWhitespace(raw) == (words.isEmpty ? nil : words.joined(separator: " ")))
    }

    @Test func nothingButWhiteSpaceIsNothing() {
        #expect(TextCleaner.collapsingWhitespace("") == nil)
        #expect(TextCleaner.collapsingWhitespace(" \n\u{00A0} ") == nil)
        #expect(TextCleaner.clean(" &amp; x ") == "& x")
    }
}
