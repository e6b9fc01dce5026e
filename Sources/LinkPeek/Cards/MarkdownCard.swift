/// A card as Markdown (CommonMark, GitHub-flavoured safe): the hover card of
/// the LSP daemon and `fetch --format markdown`.
///
/// ```
/// **Title**
///
/// Site name · host
///
/// The summary, cut at a word boundary…
///
/// ![alt](data:image/jpeg;base64,…)
///
/// → https://final/url
///
/// *loading…*
/// ```
///
/// Only the parts the card has are written, so nothing absent leaves a blank
/// line. The title is not a link: the card is about the URL being hovered,
/// and a terminal client shows a link's syntax raw. The image is only ever
/// a `data:` URI (`CardImage`).
///
/// Every text from a page goes through `escape`: a hostile title cannot
/// become a link, an image, HTML, a code span, emphasis or a block
/// (heading, list, quote, fence), while ordinary text keeps its characters
/// unescaped (a terminal client shows every backslash).
public enum MarkdownCard {
    public static func render(_ card: LinkCard, includeImage: Bool = true) -> String {
        var blocks: [String] = []
        let heading = card.title ?? card.host ?? card.originalURL
        blocks.append("**\(escape(heading, atLineStart: false, insideStrong: true))**")
        if let site = card.siteLine { blocks.append(escape(site, atLineStart: true)) }
        if let facts = card.facts { blocks.append(escape(facts, atLineStart: true)) }
        if let summary = card.summary { blocks.append(escape(summary, atLineStart: true)) }
        if includeImage, let image = card.image {
            // The URI is `data:` + a type + base64: nothing in it needs encoding.
            blocks.append("![\(escape(card.imageAlt ?? "", atLineStart: false))](\(image.dataURI))")
        }
        if let final = card.finalURL { blocks.append("→ \(escape(final, atLineStart: false))") }
        if let status = card.status { blocks.append("*\(escape(status, atLineStart: false, insideStrong: true))*") }
        return blocks.joined(separator: "\n\n")
    }

    /// `text` (one line: cards clean newlines away first) as Markdown that
    /// renders as exactly that text, with a backslash only where Markdown
    /// would otherwise change it:
    ///
    /// - `\` before ASCII punctuation (it would escape it);
    /// - `` ` ``, `*`, `_`, `~` only when the line has two or more of that
    ///   character (one alone can open nothing), and then `*` and `~` unless
    ///   white space is on both sides, `_` unless inside a word
    ///   (`Dev_Notes`, `snake_case` stay as written); with `insideStrong`
    ///   (the text sits between the card's own `**`), every `*`;
    /// - `[` when a `]` follows (no link, image, footnote or reference can
    ///   form, so `!` never needs one), and `]` before `(`;
    /// - `<` before a letter, `/`, `!` or `?` (HTML or an autolink);
    /// - `&` that starts an entity (`&amp;`, `&#38;`, `&#x26;`);
    /// - at the start of a line only: `#` that makes a heading, `>`, a list
    ///   marker (`-`, `+`, `*` before a space), a thematic break (`---`,
    ///   `***`, `___`), `1.`/`1)` that starts an ordered list.
    ///
    /// Control characters become spaces.
    public static func escape(_ text: String, atLineStart: Bool, insideStrong: Bool = false) -> String {
        let characters = text.map { character -> Character in
            guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
                scalar.value < 0x20 || scalar.value == 0x7F
            else { return character }
            return " "
        }
        var counts: [Character: Int] = [:]
        for character in characters where pairing.contains(character) { counts[character, default: 0] += 1 }
        let lastClosingBracket = characters.lastIndex(of: "]")
        let blockEscape = atLineStart ? blockMarkerOffset(characters) : nil
        var out = ""
        out.reserveCapacity(text.utf8.count + 4)
        for (offset, character) in characters.enumerated() {
            let previous = offset > 0 ? characters[offset - 1] : nil
            let next = offset + 1 < characters.count ? characters[offset + 1] : nil
            var needsEscape = offset == blockEscape
            switch character {
            case "\\":
                // At the end, inside `**…**`, the card's own `*` follows.
                needsEscape = next.map(isASCIIPunctuation) ?? insideStrong
            case "`":
                needsEscape = needsEscape || counts["`", default: 0] >= 2
            case "*" where insideStrong:
                needsEscape = true
            case "*", "~":
                needsEscape = needsEscape || (counts[character, default: 0] >= 2 && !(isSpace(previous) && isSpace(next)))
            case "_":
                needsEscape = needsEscape || (counts["_", default: 0] >= 2 && !(isWordCharacter(previous) && isWordCharacter(next)))
            case "[":
                needsEscape = lastClosingBracket.map { $0 > offset } ?? false
            case "]":
                // Never a link without its `[`, but lenient renderers and
                // highlighters take `](` as one: it costs one backslash.
                needsEscape = next == "("
            case "<":
                needsEscape = next.map { $0.isASCII && ($0.isLetter || $0 == "/" || $0 == "!" || $0 == "?") } ?? false
            case "&":
                needsEscape = startsEntity(characters, at: offset)
            default:
                break
            }
            if needsEscape { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// The offset of the character to escape so that a line starting with
    /// `characters` stays a paragraph, or nil when it is one already.
    private static func blockMarkerOffset(_ characters: [Character]) -> Int? {
        guard let first = characters.first else { return nil }
        let second = characters.count > 1 ? characters[1] : nil
        switch first {
        case ">":
            return 0
        case "#":
            let run = characters.prefix { $0 == "#" }.count
            let after = run < characters.count ? characters[run] : nil
            return run <= 6 && isSpace(after) ? 0 : nil
        case "-", "+", "*", "_":
            if first != "_", isSpace(second) { return 0 }
            // A thematic break: three or more of the same, spaces allowed between.
            let marks = characters.filter { $0 == first }.count
            return marks >= 3 && characters.allSatisfy({ $0 == first || $0 == " " }) ? 0 : nil
        default:
            // An ordered list marker: 1–9 digits, then `.` or `)`, then a space or the end.
            let digits = characters.prefix { $0.isASCII && $0.isNumber }.count
            guard (1...9).contains(digits), digits < characters.count,
                characters[digits] == "." || characters[digits] == ")"
            else { return nil }
            return isSpace(digits + 1 < characters.count ? characters[digits + 1] : nil) ? digits : nil
        }
    }

    /// `&name;`, `&#123;` or `&#x1F;` starts at `offset`: CommonMark would decode it.
    private static func startsEntity(_ characters: [Character], at offset: Int) -> Bool {
        var index = offset + 1
        let isDigit = { (c: Character) in c.isASCII && c.isNumber }
        let isHex = { (c: Character) in c.isASCII && c.isHexDigit }
        let isAlphanumeric = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber) }
        var accepts: (Character) -> Bool = isAlphanumeric
        var limit = 32
        if index < characters.count, characters[index] == "#" {
            index += 1
            accepts = isDigit
            limit = 7
            if index < characters.count, characters[index] == "x" || characters[index] == "X" {
                index += 1
                accepts = isHex
                limit = 6
            }
        } else if !(index < characters.count && characters[index].isASCII && characters[index].isLetter) {
            return false
        }
        let start = index
        while index < characters.count, index - start < limit, accepts(characters[index]) { index += 1 }
        return index > start && index < characters.count && characters[index] == ";"
    }

    private static let pairing: Set<Character> = ["`", "*", "_", "~"]

    /// White space or the edge of the line.
    private static func isSpace(_ character: Character?) -> Bool {
        character.map(\.isWhitespace) ?? true
    }

    private static func isWordCharacter(_ character: Character?) -> Bool {
        character.map { $0.isLetter || $0.isNumber } ?? false
    }

    private static func isASCIIPunctuation(_ character: Character) -> Bool {
        character.isASCII && (character.isPunctuation || character.isSymbol)
    }
}
