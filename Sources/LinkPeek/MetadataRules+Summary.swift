import FoundationEssentials
import HTMLHead

/// The summary a page shows without declaring one: its first real
/// paragraph. Pages open with notices, not prose — cookie banners, ad
/// labels, bylines, captions — so those are skipped, and a paragraph the
/// scanner cut short ends at its last whole sentence.
extension MetadataRules {
    /// The shortest paragraph that reads as a summary: shorter ones are
    /// captions, buttons, bylines and notices.
    static let minimumSummaryLength = 80

    /// The longest summary taken from a paragraph, in characters; a longer
    /// one ends at its last sentence boundary within it.
    static let maximumSummaryLength = 500

    /// Words of the notices that open pages before their prose.
    static let noticeWords = [
        "cookie", "advertisement", "sponsored content", "javascript is disabled", "enable javascript",
        "your browser", "sign up for our newsletter", "subscribe to our newsletter", "all rights reserved",
    ]

    /// The page's first paragraph long enough to be prose, not a notice or
    /// byline, ended at a sentence boundary.
    static func firstParagraph(in page: PageIndex) -> Picked<String>? {
        for (element, _) in page.fallbacks where element.name == "p" && !isMarkedByline(element) {
            guard let text = cleanText(element.text), text.count >= minimumSummaryLength, !isNotice(text) else { continue }
            return Picked(value: summaryPrefix(text), source: "first paragraph")
        }
        return nil
    }

    /// A cookie banner, an ad label, a copyright line or a "turn on
    /// JavaScript" notice rather than the article's prose.
    static func isNotice(_ text: String) -> Bool {
        let lower = text.lowercased()
        if lower.hasPrefix("©") || lower.hasPrefix("copyright") || lower.hasPrefix("by ") { return true }
        return noticeWords.contains { lower.contains($0) }
    }

    /// `text` when short enough, else its longest run of whole sentences
    /// within `maximumSummaryLength`, else its words within it and "…".
    static func summaryPrefix(_ text: String) -> String {
        guard text.count > maximumSummaryLength else { return text }
        let window = text.prefix(maximumSummaryLength)
        var end: String.Index?
        var index = window.startIndex
        while index < window.endIndex {
            let next = window.index(after: index)
            if ".!?。！？".contains(window[index]), next == window.endIndex || window[next] == " " || "。！？".contains(window[index]) {
                end = next
            }
            index = next
        }
        if let end, window.distance(from: window.startIndex, to: end) >= minimumSummaryLength {
            return String(window[..<end])
        }
        let words = window.split(separator: " ").dropLast().joined(separator: " ")
        return (words.isEmpty ? String(window) : words) + "…"
    }
}
