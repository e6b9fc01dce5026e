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

    @Test func splitOnEquivalentSeparator() {
        // "Ann Lee; Bo Kim" written with U+037E: still two people.
        #expect(MetadataRules.authorNames("By Ann Lee\u{37E} Bo Kim") == ["Ann Lee", "Bo Kim"])
    }
}
