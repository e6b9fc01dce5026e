import Testing
import TextTrimming

/// `trimmedWhitespace`, `trimmedSpaces` and `trimmedASCIIWhitespace`: which
/// scalars each trims, at the ends only, and the edge cases (empty, all
/// white space, substrings, combining marks).
@Suite struct TrimmingTests {
    @Test func emptyAndAllWhiteSpaceBecomeEmpty() {
        for text in ["", " ", "\t\n\r ", "\u{0B}\u{0C}", "\u{A0}\u{2003}\u{3000}"] {
            #expect(text.trimmedWhitespace == "", "\(text.unicodeScalars.map(\.value))")
        }
        #expect("".trimmedSpaces == "")
        #expect("".trimmedASCIIWhitespace == "")
        #expect(" \t ".trimmedSpaces == "")
        #expect(" \t\n\u{0C}\r".trimmedASCIIWhitespace == "")
    }

    @Test func onlyTheEndsGoAndInnerWhiteSpaceStays() {
        #expect("  a  b \n".trimmedWhitespace == "a  b")
        #expect("\u{A0}Ünïcode\u{2009}text\u{3000}".trimmedWhitespace == "Ünïcode\u{2009}text")
        #expect("x".trimmedWhitespace == "x")
        #expect(" x".trimmedWhitespace == "x")
        #expect("x ".trimmedWhitespace == "x")
    }

    @Test func unicodeWhiteSpaceIsTrimmedButNotFormatCharacters() {
        // Next line, line and paragraph separators are White_Space.
        #expect("\u{85}\u{2028}a\u{2029}".trimmedWhitespace == "a")
        // Zero-width space and the byte-order mark are not White_Space.
        #expect("\u{200B}a\u{FEFF}".trimmedWhitespace == "\u{200B}a\u{FEFF}")
    }

    @Test func spacesKeepNewlines() {
        #expect(" \ta\n".trimmedSpaces == "a\n")
        #expect("\n a \t".trimmedSpaces == "\n a")
        // A no-break space is a space separator.
        #expect("\u{A0}a\u{A0}".trimmedSpaces == "a")
        #expect("\u{0B}a".trimmedSpaces == "\u{0B}a")
    }

    @Test func asciiWhiteSpaceKeepsNoBreakSpaceAndVerticalTab() {
        #expect("\u{A0}a\u{A0}".trimmedASCIIWhitespace == "\u{A0}a\u{A0}")
        #expect("\u{0B}a\u{0B}".trimmedASCIIWhitespace == "\u{0B}a\u{0B}")
        #expect(" \r\n\u{0C}\ta \t".trimmedASCIIWhitespace == "a")
    }

    @Test func aCombiningMarkAfterASpaceIsKept() {
        // The space and the mark are one Character; trimming works on
        // scalars, so only the space goes and the mark is not lost.
        #expect(" \u{301}a ".trimmedWhitespace == "\u{301}a")
        #expect("a \u{301}".trimmedWhitespace == "a \u{301}")
    }

    @Test func substringsTrimToTheirOwnBounds() {
        let text = "[  inner  ]"
        let inner = text.dropFirst().dropLast()
        #expect(inner.trimmedWhitespace == "inner")
        #expect(inner.trimmedSpaces == "inner")
    }

    @Test func customPredicateTrimsOnlyWhatItMatches() {
        #expect("--a-b--".trimmingScalars { $0 == "-" } == "a-b")
        #expect("----".trimmingScalars { $0 == "-" } == "")
        #expect("abc".trimmingScalars { _ in false } == "abc")
    }

    @Test func bytePredicatesAgreeWithTheStringOnes() {
        for byte in UInt8.min...0x7F {
            let scalar = Unicode.Scalar(byte)
            #expect(WhiteSpaceByte.isWhitespace(byte) == String.isWhitespace(scalar), "byte \(byte)")
            #expect(WhiteSpaceByte.isHTMLSpace(byte) == String.isASCIIWhitespace(scalar), "byte \(byte)")
        }
        // UTF-8 lead and continuation bytes are never white space.
        for byte in UInt8(0x80)...UInt8.max {
            #expect(!WhiteSpaceByte.isWhitespace(byte) && !WhiteSpaceByte.isHTMLSpace(byte), "byte \(byte)")
        }
    }
}
