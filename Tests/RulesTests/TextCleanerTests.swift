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

    @Test func nothingButWhiteSpaceIsNothing() {
        #expect(TextCleaner.collapsingWhitespace("") == nil)
        #expect(TextCleaner.collapsingWhitespace(" \n\u{00A0} ") == nil)
        #expect(TextCleaner.clean(" &amp; x ") == "& x")
    }
}
