/// A card as a self-contained HTML fragment: one `<figure>` with inline CSS,
/// no script, no external stylesheet — for static-site generators and chat
/// bots (`fetch --format html`, `render` with `format: "html"`).
///
/// Every text and every attribute value is escaped (`&`, `<`, `>`, `"`,
/// `'`); only http(s) URLs reach an `href` (`LinkCard` keeps no other), and
/// the only `src` is the card's own thumbnail as a `data:` URI (`CardImage`).
public enum HTMLCard {
    public static func render(_ card: LinkCard, includeImage: Bool = true) -> String {
        var html = "<figure class=\"linkpeek-card\" style=\"\(Style.figure)\">"
        if includeImage, let image = card.image {
            let img = "<img src=\"\(escape(image.dataURI))\" alt=\"\(escape(card.imageAlt ?? ""))\" style=\"\(Style.image)\">"
            html += card.link.map { "<a href=\"\(escape($0))\"\(relAttribute)>\(img)</a>" } ?? img
        }
        html += "<figcaption style=\"\(Style.caption)\">"
        let heading = "<strong>\(escape(card.title ?? card.host ?? card.originalURL))</strong>"
        html += card.link.map { "<a href=\"\(escape($0))\"\(relAttribute) style=\"\(Style.titleLink)\">\(heading)</a>" } ?? heading
        if let site = card.siteLine { html += "<div style=\"\(Style.site)\">\(escape(site))</div>" }
        if let facts = card.facts { html += "<div style=\"\(Style.site)\">\(escape(facts))</div>" }
        if let summary = card.summary { html += "<p style=\"\(Style.summary)\">\(escape(summary))</p>" }
        if let final = card.finalURL {
            html += "<div style=\"\(Style.site)\">→ <a href=\"\(escape(final))\"\(relAttribute)>\(escape(final))</a></div>"
        }
        if let status = card.status { html += "<div style=\"\(Style.site)\"><em>\(escape(status))</em></div>" }
        return html + "</figcaption></figure>"
    }

    /// `text` safe as HTML text and as a double- or single-quoted attribute
    /// value: the one HTML escaper (cards, the bookmark file). Scalar by
    /// scalar, so a combining mark cannot hide a quote or a bracket.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static let relAttribute = " rel=\"noopener noreferrer nofollow\""

    private enum Style {
        static let figure = "margin:0;max-width:32rem;border:1px solid #d0d7de;border-radius:8px;overflow:hidden;"
            + "font-family:system-ui,-apple-system,sans-serif;background:#fff;color:#1f2328"
        static let image = "display:block;width:100%;height:auto;border:0"
        static let caption = "padding:0.75rem 1rem"
        static let titleLink = "color:inherit;text-decoration:none"
        static let site = "margin-top:0.25rem;color:#57606a;font-size:0.875em"
        static let summary = "margin:0.5rem 0 0;line-height:1.4"
    }
}
