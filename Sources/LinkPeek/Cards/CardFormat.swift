/// The formats a card renders to (`fetch --format`, `render`'s `format`).
public enum CardFormat: String, Sendable, CaseIterable {
    case markdown, html, text

    /// `card` in this format; `textStyle` applies to `text` only.
    public func render(_ card: LinkCard, includeImage: Bool = true, textStyle: TextCard.Style = .init(color: false, width: 80)) -> String {
        switch self {
        case .markdown: MarkdownCard.render(card, includeImage: includeImage)
        case .html: HTMLCard.render(card, includeImage: includeImage)
        case .text: TextCard.render(card, style: textStyle)
        }
    }
}
