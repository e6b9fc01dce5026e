import LinkPeekTestSupport
import Testing
@testable import LinkPeek

/// Seeded random texts over Markdown's special characters: `escape` only
/// ever adds a backslash before ASCII punctuation (so removing CommonMark's
/// escapes gives the text back exactly), and leaves text without special
/// characters untouched. No input can trap it.
@Suite struct MarkdownEscapeRandomTests {
    static let alphabet: [Character] = [
        "a", "b", "Z", "0", "1", " ", "_", "*", "~", "`", "[", "]", "(", ")", "!", "<", ">", "&", "#", ";",
        "-", "+", "=", ".", ":", "\\", "/", "é", "日", "\u{7}",
    ]

    /// `text` with CommonMark's backslash escapes removed.
    static func unescape(_ text: String) -> String {
        let characters = Array(text)
        var out = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count, characters[index + 1].isASCII,
                characters[index + 1].isPunctuation || characters[index + 1].isSymbol
            {
                out.append(characters[index + 1])
                index += 2
                continue
            }
            out.append(character)
            index += 1
        }
        return out
    }

    @Test func escapingOnlyAddsBackslashesBeforePunctuation() {
        var generator = SeededGenerator(seed: SeededGenerator.seed(default: 18))
        for _ in 0..<4000 {
            let length = Int.random(in: 0...24, using: &generator)
            let text = String((0..<length).map { _ in Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &generator)] })
            // Control characters become spaces first; the rest must come back.
            let expected = String(text.map { $0 == "\u{7}" ? " " : $0 })
            for (atLineStart, insideStrong) in [(false, false), (true, false), (false, true)] {
                let escaped = MarkdownCard.escape(text, atLineStart: atLineStart, insideStrong: insideStrong)
                #expect(Self.unescape(escaped) == expected, "\(text.debugDescription) → \(escaped.debugDescription)")
            }
        }
    }

    @Test func plainTextIsLeftAlone() {
        var generator = SeededGenerator(seed: SeededGenerator.seed(default: 1818))
        let plain: [Character] = ["a", "b", "Z", "0", " ", "é", "日", ",", "?", "%", "'", "\""]
        for _ in 0..<1000 {
            let length = Int.random(in: 0...40, using: &generator)
            let text = String((0..<length).map { _ in plain[Int.random(in: 0..<plain.count, using: &generator)] })
            #expect(MarkdownCard.escape(text, atLineStart: true) == text, "\(text.debugDescription)")
        }
    }
}
