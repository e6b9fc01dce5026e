import Testing
@testable import Rules

/// The byte check that spares credit lines the generic string search
/// (`MetadataRules.mayHold`): it may only say "absent" where the search,
/// character by character and canonically equivalent, finds nothing.
@Suite struct CreditSearchTests {
    @Test(arguments: [
        ("ann lee. illustrations by bo kim", "illustrations by", true),
        ("ann lee", "photo by", false),
        ("ann lee and bo kim", " and ", true),
        ("ann lee", " and ", false),
        ("", " and ", false),
        ("an", " and ", false),
        // A combining mark after the colon: the bytes stand, the character does not (the search decides).
        ("photo:\u{301} ann", "photo:", true),
    ])
    func bytesDecideAbsence(text: String, piece: String, may: Bool) {
        #expect(MetadataRules.mayHold(text, piece) == may)
        if !may { #expect(text.firstRange(of: piece) == nil) }
    }

    /// Pieces another character is canonically equivalent to (`;` and the
    /// Greek question mark, `ü` written with a combining diaeresis) always
    /// go to the search, which finds them where their bytes do not stand.
    @Test(arguments: [
        ("ann lee\u{37E} bo kim", ";"),
        ("u\u{308}bersetzt von bo kim", "übersetzt von"),
        ("ann lee\u{3001}bo kim", "、"),
    ])
    func equivalentsGoToTheSearch(text: String, piece: String) {
        #expect(MetadataRules.mayHold(text, piece))
        #expect(text.firstRange(of: piece) != nil)
    }

    /// On ASCII text the bytes decide every piece the credit rules search
    /// for: an ASCII one (`;` and `K` too) exactly, one with another
    /// character (`、`, " và ") as absent; elsewhere "absent" still means
    /// the search finds nothing.
    @Test func bytesDecideOnASCIIText() {
        let texts = [
            "", ";", "Ann Lee; Bo Kim", "ann lee and bo kim", "Ann Lee AND Bo Kim", "Kim Lee", "ann lee",
            "ann lee. photos by bo kim", "a`b", "Ann Lee & Bo", "Ann Lee, Bo Kim", "x and", " and ", "Ann Lee y Bo",
            "ann lee\u{37E} bo kim", "Ann Lee\u{3001}Bo Kim", "Ann Lee và Bo Kim", "\u{212A}im Lee", "e\u{301} and ",
            "Ann Lee · 5 min", "Ann Lee \u{387} 5 min", "Ann Lee | Staff",
        ]
        let pieces = MetadataRules.otherRoleLabels + MetadataRules.bylinePrefixes + [
            " and ", " AND ", " & ", " y ", " et ", " und ", " e ", " en ", " og ", " och ", "、", ";", " và ",
            "K", "`", "\u{212A}", "\u{37E}", "Kim", " · ", " • ", " | ",
        ]
        for text in texts {
            for piece in pieces {
                let found = text.firstRange(of: piece) != nil
                let may = MetadataRules.mayHold(text, piece)
                if !may { #expect(!found && text.split(separator: piece).count <= 1, "\(text) \(piece)") }
                if ASCIIText.isASCII(text), ASCIIText.isASCII(piece) { #expect(may == found, "\(text) \(piece)") }
                if ASCIIText.isASCII(text), ["、", " và ", " · ", " • "].contains(piece) { #expect(!may, "\(text) \(piece)") }
            }
        }
    }

    /// Job titles read their words by bytes on ASCII text: what the
    /// `Character` split and filter give.
    @Test func jobTitleWordsAreTheCharacterWords() {
        let texts = [
            "Senior Editor", "Ph.D.", "M.D.", "Staff", "Ann Lee", "Editor-in-Chief", "The News Desk", "Éditeur en chef",
            "STAFF WRITER", "", "phd2", "Head of News", "m.b.a", "Rédacteur", "Vice\r\nPresident",
        ]
        for text in texts {
            let words = text.lowercased().split { !$0.isLetter }.map(String.init)
            let expected = MetadataRules.degreeWords.contains(text.lowercased().filter(\.isLetter))
                || (!words.isEmpty && words.allSatisfy { MetadataRules.jobTitleWords.contains($0) || ["of", "the", "for", "and", "at"].contains($0) })
            #expect(MetadataRules.isJobTitle(text) == expected, "\(text)")
        }
    }

    @Test func splitOnEquivalentSeparator() {
        // "Ann Lee; Bo Kim" written with U+037E: still two people.
        #expect(MetadataRules.authorNames("By Ann Lee\u{37E} Bo Kim") == ["Ann Lee", "Bo Kim"])
    }
}
