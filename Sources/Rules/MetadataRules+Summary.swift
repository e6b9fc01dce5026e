import FoundationEssentials
import HTMLHead
import TextTrimming

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
    /// byline, ended at a sentence boundary. Paragraphs in navigation, an
    /// aside, a form or a footer are never taken (`nonSummaryLandmarks`), and
    /// the lead article's first one wins over one before it elsewhere (a
    /// promotion or a site blurb above the article).
    static func firstParagraph(in page: PageIndex) -> Picked<String>? {
        let found = bestPlaced(in: page, within: .lead) { _, element -> String? in
            guard element.name == "p", !isMarkedByline(element), !element.context.isInside(nonSummaryLandmarks),
                  let text = TextCleaner.clean(element.text), text.count >= minimumSummaryLength, !isNotice(text)
            else { return nil }
            return text
        }
        return found.map { Picked(value: summaryPrefix($0.value), source: "first paragraph") }
    }

    /// A cookie banner, an ad label, a copyright line or a "turn on
    /// JavaScript" notice rather than the article's prose.
    static func isNotice(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        if text.hasPrefix("©") || startsWithASCII(bytes, "copyright") || startsWithASCII(bytes, "by ") { return true }
        return noticeWordBytes.contains { containsASCII(bytes, $0) }
    }

    private static let noticeWordBytes = noticeWords.map { Array($0.utf8) }

    private static func startsWithASCII(_ bytes: [UInt8], _ word: String) -> Bool {
        ASCIIByte.matches(word.utf8, in: bytes, at: 0)
    }

    /// Whether `needle` (ASCII lowercase) occurs in `bytes`, ignoring ASCII case.
    private static func containsASCII(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        ASCIIByte.firstIndex(of: needle, in: bytes, from: 0) != nil
    }

    /// `text` when short enough, else its longest run of whole sentences
    /// within `maximumSummaryLength`, else its words within it and "…".
    static func summaryPrefix(_ text: String) -> String {
        // Plain ASCII (no CR, which pairs with LF into one Character) has a
        // Character per byte: the same cut, without grapheme breaking.
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) { return asciiSummaryPrefix(text) }
        return characterSummaryPrefix(text)
    }

    /// `summaryPrefix` on `Character`s: any text.
    static func characterSummaryPrefix(_ text: String) -> String {
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

    /// `summaryPrefix` of ASCII text, on its bytes.
    static func asciiSummaryPrefix(_ text: String) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count > maximumSummaryLength else { return text }
        let window = bytes[0..<maximumSummaryLength]
        var end: Int?
        for index in window.indices where [UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "?")].contains(window[index]) {
            if index + 1 == window.endIndex || window[index + 1] == UInt8(ascii: " ") { end = index + 1 }
        }
        if let end, end >= minimumSummaryLength { return String(decoding: window[..<end], as: UTF8.self) }
        let words = window.split(separator: UInt8(ascii: " ")).dropLast().map { String(decoding: $0, as: UTF8.self) }
        return (words.isEmpty ? String(decoding: window, as: UTF8.self) : words.joined(separator: " ")) + "…"
    }
}
