/// A card as Markdown (CommonMark, GitHub-flavoured safe): the hover card of
/// the LSP daemon and `fetch --format markdown`.
///
/// ```
/// **[Title](https://final/url)**
///
/// Site name · host
///
/// The summary, cut at a word boundary…
///
/// ![alt](https://image/url)
///
/// → [https://final/url](https://final/url)
///
/// *loading…*
/// ```
///
/// Every text from a page goes through `escape`, every URL through
/// `destination`: a hostile title cannot become a link, an image, HTML, a
/// code span or a block (heading, list, quote, fence).
public enum MarkdownCard {
    public static func render(_ card: LinkCard, includeImage: Bool = true) -> String {
        var blocks: [String] = []
        let heading = card.title ?? card.host ?? card.originalURL
        if let link = card.link {
            blocks.append("**[\(escape(heading, atLineStart: false))](\(destination(link)))**")
        } else {
            blocks.append("**\(escape(heading, atLineStart: false))**")
        }
        if let site = card.siteLine { blocks.append(escape(site, atLineStart: true)) }
        if let summary = card.summary { blocks.append(escape(summary, atLineStart: true)) }
        if includeImage, let image = card.imageURL {
            blocks.append("![\(escape(card.imageAlt ?? "", atLineStart: false))](\(destination(image)))")
        }
        if let final = card.finalURL {
            blocks.append("→ [\(escape(final, atLineStart: false))](\(destination(final)))")
        }
        if let status = card.status { blocks.append("*\(escape(status, atLineStart: false))*") }
        return blocks.joined(separator: "\n\n")
    }

    /// `text` (one line: cards clean newlines away first) as literal
    /// Markdown text. Inline syntax is escaped everywhere; block syntax
    /// (`#`, `>`, `-`, `+`, `=`, `1.`) only where it would start a block.
    /// Backslash escapes are CommonMark's way to say "this character is
    /// text"; `&` is escaped so no entity is decoded into markup.
    public static func escape(_ text: String, atLineStart: Bool) -> String {
        let characters = Array(text)
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        var leadingDigits = atLineStart
        for (offset, character) in characters.enumerated() {
            let startsBlock = atLineStart && offset == 0 && blockStarters.contains(character)
            // "2024. A year" must not become a list item: a run of digits at
            // the start, then "." or ")", then a space or the end.
            let next = offset + 1 < characters.count ? characters[offset + 1] : " "
            let endsListNumber = leadingDigits && offset > 0 && (character == "." || character == ")") && next == " "
            if !(character.isASCII && character.isNumber) { leadingDigits = false }
            if character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first, scalar.value < 0x20 {
                out.append(" ")
                continue
            }
            if inlineSpecial.contains(character) || startsBlock || endsListNumber { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// `url` as a link destination: the characters that could end it or
    /// break out of it (space, quotes, parentheses, angle brackets,
    /// backslash, backtick, control characters) percent-encoded.
    public static func destination(_ url: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(url.utf8.count)
        for byte in url.utf8 {
            if byte <= 0x20 || byte == 0x7F || unsafeInDestination.contains(byte) {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static let inlineSpecial: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", ">", "&", "~", "|", "!"]
    private static let blockStarters: Set<Character> = ["#", ">", "-", "+", "=", ":"]
    private static let unsafeInDestination: Set<UInt8> = Set("()<>\"'\\`".utf8)
    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
