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
    /// promotion or a site blurb above the article). A text block that
    /// holds that paragraph after lines of its own (`<div>Lead<br>…<p>…</p>
    /// </div>`) is read first, as a reader reads it.
    static func firstParagraph(in page: PageIndex) -> Picked<String>? {
        var paragraph: Int?
        let found = bestPlaced(in: page, within: .lead) { position, element -> String? in
            guard element.name == "p", !isMarkedByline(element), !element.context.isInside(nonSummaryLandmarks),
                  let text = TextCleaner.clean(element.text), ASCIIText.hasCharacters(text, atLeast: minimumSummaryLength),
                  !isNotice(text)
            else { return nil }
            paragraph = position
            return text
        }
        if let found, let paragraph {
            if let lead = textBlock(holding: paragraph, in: page) { return lead }
            return Picked(value: summaryPrefix(found.value), source: "first paragraph")
        }
        return leadTextBlock(in: page)
    }

    /// The lead of a text block that holds the paragraph at `position` (of
    /// `page.fallbacks`) after lines of its own, when it reads as one.
    static func textBlock(holding position: Int, in page: PageIndex) -> Picked<String>? {
        let order = page.fallbacks[position].order
        for (element, blockOrder) in page.fallbacks[..<position] where element.recordedInside > 0 {
            guard blockOrder < order, order <= blockOrder + element.recordedInside,
                  let text = textBlockLead(element) else { continue }
            return Picked(value: summaryPrefix(text), source: "text block")
        }
        return nil
    }

    /// Lines shorter than this are a menu's or a list's, not prose's.
    static let shortLineLength = 40

    /// The lead written straight inside a `<div>`, its lines parted by
    /// `<br>`s (a text block: the scanner records one as a `<div>` without
    /// attributes whose text has a line end per `<br>`), with the checks of
    /// a paragraph, and not mostly short lines (navigation written with
    /// `<br>`s). Read only when no paragraph serves.
    static func leadTextBlock(in page: PageIndex) -> Picked<String>? {
        let found = bestPlaced(in: page, within: .lead) { _, element in textBlockLead(element) }
        return found.map { Picked(value: summaryPrefix($0.value), source: "text block") }
    }

    /// A text block's lines as one text, when they read as a lead.
    static func textBlockLead(_ element: HTMLElement) -> String? {
        guard element.name == "div", element.attributeList.isEmpty, let raw = element.text, raw.contains("\n"),
              !element.context.isInside(nonSummaryLandmarks) else { return nil }
        let lines = raw.split(separator: "\n").compactMap { TextCleaner.clean(String($0)) }
        guard !isShortLines(lines), let text = TextCleaner.clean(lines.joined(separator: " ")),
              text.count >= minimumSummaryLength, !isNotice(text) else { return nil }
        return text
    }

    /// Mostly short lines and none as long as a summary: a menu, not prose.
    static func isShortLines(_ lines: [String]) -> Bool {
        let short = lines.filter { $0.count < shortLineLength }.count
        return lines.count >= 3 && short * 2 > lines.count && lines.allSatisfy { $0.count < minimumSummaryLength }
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
