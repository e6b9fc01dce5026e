/// A card for a terminal (`fetch --format text`): the title in bold, the
/// site and host dimmed, the summary wrapped to the width, then the URL.
/// The hover card of a client that asks for plain text is this card too,
/// with `Style.hover`: no colour, no wrapping (the editor wraps), and the
/// URL only when it redirected (`→ final`), since the hovered URL is in view.
///
/// Colours (SGR escapes) only when `color` is true: the CLI sets it for a
/// terminal without `NO_COLOR`. Page text is cleaned by `LinkCard` first,
/// so it carries no escape sequence or control character of its own.
public enum TextCard {
    public struct Style: Sendable, Equatable {
        public var color: Bool
        /// Columns to wrap at (at least 20).
        public var width: Int

        /// Whether the URL line is always there (the final URL, else the
        /// original); when false, only after a redirect, as `→ final`.
        public var alwaysShowsURL: Bool

        public init(color: Bool, width: Int, alwaysShowsURL: Bool = true) {
            self.color = color
            self.width = max(20, width)
            self.alwaysShowsURL = alwaysShowsURL
        }

        /// The plain-text hover card: no SGR escape, lines as long as they are.
        public static let hover = Style(color: false, width: 1000, alwaysShowsURL: false)
    }

    public static func render(_ card: LinkCard, style: Style) -> String {
        var lines: [String] = []
        let heading = card.title ?? card.host ?? card.originalURL
        lines += wrap(heading, width: style.width).map { styled($0, "1", style) }
        if let site = card.siteLine { lines += wrap(site, width: style.width).map { styled($0, "2", style) } }
        if let facts = card.facts { lines += wrap(facts, width: style.width) }
        if let summary = card.summary { lines += wrap(summary, width: style.width) }
        if style.alwaysShowsURL, let link = card.finalURL ?? card.link {
            lines.append(styled(link, "2;4", style))
        } else if !style.alwaysShowsURL, let final = card.finalURL {
            lines.append("→ " + final)
        }
        if let status = card.status { lines.append(styled("(\(status))", "3", style)) }
        return lines.joined(separator: "\n")
    }

    private static func styled(_ text: String, _ sgr: String, _ style: Style) -> String {
        style.color ? "\u{1B}[\(sgr)m\(text)\u{1B}[0m" : text
    }

    /// `text` broken into lines of at most `width` columns at spaces; a
    /// word longer than the width gets a line of its own, cut.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            var wordWidth = columns(word)
            while wordWidth > width {
                if !line.isEmpty {
                    lines.append(line)
                    line = ""
                    lineWidth = 0
                }
                let (head, rest) = cut(word, width: width)
                lines.append(head)
                word = rest
                wordWidth = columns(word)
            }
            if lineWidth > 0, lineWidth + 1 + wordWidth > width {
                lines.append(line)
                line = ""
                lineWidth = 0
            }
            if lineWidth > 0 {
                line += " "
                lineWidth += 1
            }
            line += word
            lineWidth += wordWidth
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    private static func cut(_ word: String, width: Int) -> (String, String) {
        var used = 0
        var index = word.startIndex
        while index < word.endIndex {
            let next = columns(word[index])
            if used + next > width { break }
            used += next
            index = word.index(after: index)
        }
        if index == word.startIndex { index = word.index(after: index) }
        return (String(word[..<index]), String(word[index...]))
    }

    /// Terminal columns of `text`: East Asian wide characters and emoji count two.
    static func columns(_ text: some StringProtocol) -> Int {
        text.reduce(0) { $0 + columns($1) }
    }

    static func columns(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
