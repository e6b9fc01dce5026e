import Testing
@testable import Rules

/// The byte tests (`ASCIIText`) give what the `Character` forms they stand
/// in for give, on the text they are used for, and only rule out what the
/// `Character` forms cannot find.
@Suite struct ASCIITextTests {
    static let texts = [
        "", "Author", "c-byline__name", "comment-author", "post-AUTHOR", "writer", "Songwriters_Hall",
        "writer-name", "x writer", "https://cdn.example/1x1.gif", "site-Logo", "a\r\nauthor", "author\r\n",
        "WRITER2", "by-writer_", "Published: March 9, 2021", "posted by Ann", "Data:image/png", "data:",
    ]
    static let needles = ["author", "byline", "comment", "logo", "1x1", "/ads/", "pixel", "writer", "by", "data:"]

    @Test func containsIsLowercasedContains() {
        for text in Self.texts where ASCIIText.isASCII(text) {
            for needle in Self.needles {
                #expect(ASCIIText.contains(text, needle) == text.lowercased().contains(needle), "\(text) \(needle)")
            }
        }
    }

    @Test func hasTokenIsSplitContains() {
        for text in Self.texts where ASCIIText.isASCII(text) {
            for token in Self.needles where !token.contains("/") && !token.contains(":") {
                let tokens = text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
                #expect(ASCIIText.hasToken(text, token) == tokens.contains(token), "\(text) \(token)")
            }
        }
    }

    @Test func hasPrefixIsLowercasedHasPrefix() {
        for text in Self.texts where ASCIIText.isASCII(text) {
            for prefix in Self.needles + ["Posted", "publié", "公開", ""] {
                #expect(ASCIIText.hasPrefix(text, prefix) == text.lowercased().hasPrefix(prefix), "\(text) \(prefix)")
            }
        }
    }

    /// `holds` is the rules' `contains` (the string-processing search,
    /// `firstRange(of:) != nil`; Foundation's `contains` is another, which a
    /// test file importing Foundation would pick), on ASCII and other
    /// text: CR LF (one character), combining marks after a match, the
    /// characters equivalent to ASCII ones (U+212A K, U+037E ;), empty
    /// texts and pieces.
    @Test func holdsIsContains() {
        let texts = Self.texts + [
            "a\r\nb", "x\r", "\ny", "cafe\u{301} noir", "Café", "\u{212A}elvin", "a\u{37E}b", "a;b", "東京 updated",
            "post-updated modified", "display:none", "日本語 display:none", " ", "by Ann Lee and Bo Kim",
        ]
        let pieces = Self.needles + [
            "", "\r", "\n", "\r\n", "a\r", "\nb", "b", "cafe", "café", "e", "Kelvin", "K", ";", "\u{212A}", "東京",
            "updat", "modif", "display:none", "Ann Lee", " ", "Bo Kim",
        ]
        for text in texts {
            for piece in pieces {
                #expect(ASCIIText.holds(text, piece) == (text.firstRange(of: piece) != nil), "\(text.debugDescription) \(piece.debugDescription)")
            }
        }
    }

    static let digitTexts = [
        "", "2021", "202", "May 3, 2016", "1́999", "1999\u{301}", "19\u{301}99 2000", "No. 1234", "a\r\n2021", "٢٠٢١ 12",
        "Ann Lee", "2021-03-09T08:15", "①②③④", "12 34", "東京 2021年", "x1234x", "12345", "\u{600}1999", "\u{600}19999",
        "2021\u{301} 1999", "年2021", "2021年", "12345\u{301}",
    ]

    /// `hasDigitRun` is the character loop `hasYear` runs, where it answers.
    @Test func digitRunIsTheCharacterRun() {
        for text in Self.digitTexts {
            var run = 0, found = false
            for character in text {
                run = character.isASCIIDigit ? run + 1 : 0
                if run == 4 { found = true }
            }
            if let decided = ASCIIText.hasDigitRun(text, of: 4) { #expect(decided == found, "\(text.debugDescription)") }
            #expect(MetadataRules.hasYear(text) == found, "\(text.debugDescription)")
        }
        #expect(ASCIIText.hasDigitRun("2021", of: 4) == true)
        #expect(ASCIIText.hasDigitRun("Ann", of: 4) == false)
    }

    @Test func digitsAndLettersAreTheCharacterCounts() {
        for text in Self.digitTexts + Self.texts {
            guard let counts = ASCIIText.digitsAndLetters(text) else {
                #expect(!ASCIIText.isASCII(text))
                continue
            }
            #expect(counts.digits == text.filter(\.isASCIIDigit).count, "\(text.debugDescription)")
            #expect(counts.letters == text.filter(\.isLetter).count, "\(text.debugDescription)")
        }
    }

    /// A character count as `count` gives it, on text with combining marks and CR LF too.
    @Test(arguments: ["", "abc", "e\u{301}e\u{301}e\u{301}", "a\r\nb", "日本語のテキスト", "👩‍👩‍👧 ok"])
    func hasCharactersIsCount(text: String) {
        for count in 0...12 {
            #expect(ASCIIText.hasCharacters(text, atLeast: count) == (text.count >= count), "\(text) \(count)")
        }
    }

    /// Absent bytes mean no match; bytes present may still be no match
    /// (a combining mark after the piece), which the full search settles.
    @Test(arguments: [
        ("Ann Lee | Staff", " | ", true),
        ("Ann Lee • 5 min", " • ", true),
        ("Ann Lee – 2021", " – ", true),
        ("Ann Lee", " — ", false),
        ("Ann Lee - x", " – ", false),
        ("Ann Lee |\u{301} Staff", " | ", false),
    ])
    func holdsBytesRulesOutOnlyWhatTheSearchCannotFind(text: String, piece: String, found: Bool) {
        #expect((text.firstRange(of: piece) != nil) == found)
        if !ASCIIText.holdsBytes(text, piece) { #expect(!found) }
    }

    static let classNames = Self.texts + [
        "post-date", "entry-date published", "pubDate", "x--y", "--", "a1b2", "Updated_At", "a\r\nB", " Date ", "ünïcode-date",
    ]

    @Test func letterRunsAreLowercasedSplit() {
        for text in Self.classNames {
            let runs = ASCIIText.lowercasedLetterRuns(text)
            if ASCIIText.isASCII(text) {
                #expect(runs == text.lowercased().split { !$0.isLetter }.map(String.init), "\(text)")
            } else {
                #expect(runs == nil, "\(text)")
            }
        }
    }

    @Test func foldedAlphanumericsIsTheFoldedName() {
        for text in Self.classNames + ["The Verge", "the-verge.com", "AT&T 2", "Café Lumière"] {
            let folded = ASCIIText.foldedAlphanumerics(text)
            if ASCIIText.isASCII(text) {
                #expect(folded == text.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }, "\(text)")
            } else {
                #expect(folded == nil, "\(text)")
            }
        }
        #expect(MetadataRules.foldedName("Café Lumière") == "cafélumière")
    }

    @Test func dataPrefixTest() {
        #expect(ASCIIText.hasPrefix("DATA:image/png;base64,AA", bytes: "data:"))
        #expect(!ASCIIText.hasPrefix("/data:x", bytes: "data:"))
        // The bytes stand but the character after the colon is another: the full test decides.
        #expect(ASCIIText.hasPrefix("data:\u{301}x", bytes: "data:"))
        #expect(!"data:\u{301}x".lowercased().hasPrefix("data:"))
    }
}
