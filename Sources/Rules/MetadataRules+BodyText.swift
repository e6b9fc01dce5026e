import FoundationEssentials
import HTMLHead
import TextTrimming

/// Text fields the page shows without declaring them: its byline, its
/// first heading and paragraph, a `<time datetime>`. Each is the last
/// source of its field, used only when no tag, JSON-LD or microdata gave one.
extension MetadataRules {
    /// Labels of bylines that are no names ("About the author", "Authors").
    static let bylineLabels: Set<String> = [
        "author", "authors", "about the author", "about author", "by", "posted by", "written by",
        "contributor", "contributors", "more from author", "all posts", "view all posts",
    ]

    /// The author a byline shows: a `rel=author` link, else an element
    /// marked author/byline by its class or id, else a link to an author
    /// page (`/author/…`, `/author-bio?id=…`). Where it sits comes first
    /// (`BodyPlace`): a byline in the lead article's header, then in the
    /// article, then elsewhere; one in navigation, an aside or the page
    /// footer (related articles, comment boxes) only when there is no other.
    static func bylineAuthors(in page: PageIndex) -> Picked<[String]>? {
        let tiers: [(String, (HTMLElement) -> Bool)] = [
            ("rel=author link", { $0.name == "a" && hasRelAuthor($0) }),
            ("byline", isMarkedByline),
            ("author page link", linksToAuthorPage),
            ("labelled byline", isLabelledByline),
        ]
        var best: (place: BodyPlace, value: Picked<[String]>)?
        for (source, isTier) in tiers {
            // Within a tier, the first at its place; a later tier only wins by a better place.
            let found = bestPlaced(in: page) { position, element -> Picked<[String]>? in
                guard isTier(element), let text = TextCleaner.clean(element.text) else { return nil }
                let names = bylineNames(text)
                guard !names.isEmpty else { return nil }
                let inner = innerBylines(after: position, in: text, page: page)
                var unique: [String] = []
                for name in inner ?? (names + sameKindLinks(after: position, page: page, isTier)) where !unique.contains(name) {
                    unique.append(name)
                }
                return Picked(value: withoutTitlesBesidePeople(unique), source: source)
            }
            if let found, best.map({ found.place < $0.place }) ?? true { best = found }
            if best?.place == .leadHeader { break }
        }
        return best?.value
    }

    /// Author links that follow one another ("<a rel=author>Ann</a> and
    /// <a rel=author>Bo</a>"): the names after the link at `position`,
    /// while the next recorded elements are links of the same kind (an
    /// avatar image between them does not part them).
    private static func sameKindLinks(after position: Int, page: PageIndex, _ isTier: (HTMLElement) -> Bool) -> [String] {
        var names: [String] = []
        for (element, _) in page.fallbacks[(position + 1)...].prefix(6) where element.name != "img" {
            guard element.name == "a", isTier(element) else { break }
            names += bylineNames(element.text)
        }
        return names
    }

    /// A byline box often wraps the names' own elements (`<div class=author>
    /// By <a class=author-name>Ann</a> and <a rel=author>Bo</a> · 5 min</div>`):
    /// those give the names without the box's other words. The elements
    /// nested in the box follow it, their text inside its text. Nil when
    /// none is marked.
    private static func innerBylines(after position: Int, in text: String, page: PageIndex) -> [String]? {
        var found: [String] = []
        for (inner, _) in page.fallbacks[(position + 1)...] {
            guard let innerText = TextCleaner.clean(inner.text) else { continue }
            guard ASCIIText.holds(text, innerText) else { break }
            guard isMarkedByline(inner) || linksToAuthorPage(inner) || (inner.name == "a" && hasRelAuthor(inner)) else { continue }
            for name in bylineNames(innerText) {
                // A wrapper and the name inside it give the same name, or the wrapper's longer text.
                found.removeAll { ASCIIText.holds($0, name) }
                if !found.contains(where: { ASCIIText.holds(name, $0) }) { found.append(name) }
            }
        }
        return found.isEmpty ? nil : found
    }

    /// A link to an author page: a path segment starting "author"
    /// (`/author/ann`, `/authors/ann`, `/author-bio?id=3`) or an author
    /// query parameter. A word in a title (`Gray_(author)`) or a longer
    /// word (`/authorities/`) is not enough.
    static func linksToAuthorPage(_ element: HTMLElement) -> Bool {
        guard element.name == "a", let href = element["href"]?.lowercased() else { return false }
        let path = href.prefix { $0 != "?" && $0 != "#" }
        let segments = path.split(separator: "/")
        let authorSegment = segments.contains { segment in
            segment == "author" || segment == "authors" || ["author-", "author_", "author."].contains { segment.hasPrefix($0) }
        }
        return authorSegment || href.dropFirst(path.count).contains("author=")
    }

    /// The people a byline's text names, without the labels, sentences
    /// and URLs that sit in byline boxes too.
    static func bylineNames(_ raw: String?) -> [String] {
        guard let text = TextCleaner.clean(raw), !bylineLabels.contains(text.lowercased()) else { return [] }
        return authorNames(text).filter { name in
            let words = name.split(separator: " ")
            // Names are mostly letters; identifiers and dates are not.
            let letters = name.filter(\.isLetter).count
            return name.count <= 80 && words.count <= 8 && letters * 2 >= name.filter({ !$0.isWhitespace }).count
                && !name.hasSuffix(":") && !bylineLabels.contains(name.lowercased())
        }
    }

    /// A byline without what follows the name: after "•", "|" or "·"
    /// come dates, read times and links; after a dash, a role stays
    /// ("Ann Lee - Editor") but a date or count goes ("Ann Lee - 31.05.2022").
    static func firstBylineSegment(_ text: String) -> String {
        var result = text
        // "·" has a canonical twin (U+0387): its bytes decide only in ASCII text (`mayHold`).
        for hard in [" • ", " | ", " · "] where hard == " · " ? ASCIIText.mayHold(result, hard) : ASCIIText.holdsBytes(result, hard) {
            if let range = result.firstRange(of: hard) { result = String(result[..<range.lowerBound]) }
        }
        for soft in [" - ", " – ", " — "] where ASCIIText.holdsBytes(result, soft) {
            if let range = result.firstRange(of: soft), result[range.upperBound...].contains(where: \.isNumber) {
                result = String(result[..<range.lowerBound])
            }
        }
        return result.trimmingScalars { String.isSpace($0) || "-–—•|·,:".unicodeScalars.contains($0) }
    }

    /// The longest credit line read from an element that names nothing.
    static let labelledBylineLength = 100

    /// A short text that starts with a credit prefix ("By Ann Lee") in an
    /// element no marker names (a label run, a paragraph), naming people as
    /// names are written: "By 2030, …" and "By the way" are prose, "By
    /// Topic" a menu's filter. Never in navigation, an aside or a related
    /// list (other articles' credits).
    static func isLabelledByline(_ element: HTMLElement) -> Bool {
        guard element.name != "a", element.name != "time", !element.context.isInside(chromeLandmarks),
              let text = TextCleaner.clean(element.text),
              !ASCIIText.hasCharacters(text, atLeast: labelledBylineLength + 1), withoutBylinePrefix(text) != text
        else { return false }
        let names = bylineNames(text)
        return !names.isEmpty && names.allSatisfy(isWrittenAsName)
    }

    /// Lowercase words inside names ("Ann van der Berg").
    static let namePrefixWords: Set<String> = ["van", "von", "der", "den", "de", "da", "di", "du", "la", "le", "del", "ter", "ten", "bin", "al"]

    /// A name of two to five words (one, in scripts written without
    /// spaces), no digits, each word capitalised where its script has
    /// capitals (or a lowercase particle: "van", "de").
    static func isWrittenAsName(_ name: String) -> Bool {
        let words = name.split(separator: " ")
        let unspaced = name.unicodeScalars.contains { $0.value >= 0x2E80 }
        guard words.count >= (unspaced ? 1 : 2), words.count <= 5, !name.contains(where: \.isNumber) else { return false }
        return words.allSatisfy { word in
            guard let first = word.first(where: \.isLetter) else { return true }
            return !first.isLowercase || namePrefixWords.contains(word.lowercased())
        }
    }

    static func hasRelAuthor(_ element: HTMLElement) -> Bool {
        (element["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).contains("author")
    }

    /// True when `class`, `id`, `rel` or `data-testid` says author or byline, and not a
    /// comment's (`class="comment-author"` names a commenter, not the author).
    static func isMarkedByline(_ element: HTMLElement) -> Bool {
        let raw = ["class", "id", "rel", "data-testid"].compactMap { element[$0] }
        if raw.allSatisfy(ASCIIText.isASCII) {
            guard !raw.contains(where: { ASCIIText.contains($0, "comment") }) else { return false }
            return raw.contains { value in
                bylineMarkers.contains { ASCIIText.contains(value, $0) }
                    || bylineTokenMarkers.contains { ASCIIText.hasToken(value, $0) }
            }
        }
        let values = raw.map { $0.lowercased() }
        guard !values.contains(where: { $0.contains("comment") }) else { return false }
        return values.contains { value in
            bylineMarkers.contains { value.contains($0) }
                || value.split { !$0.isLetter && !$0.isNumber }.contains { bylineTokenMarkers.contains(String($0)) }
        }
    }

    /// The page's first `<h1>`: the title it shows its readers.
    static func headingTitle(in page: PageIndex) -> Picked<String>? {
        for (element, _) in page.fallbacks where element.name == "h1" {
            if let text = TextCleaner.clean(element.text) { return Picked(value: text, source: "h1") }
        }
        return nil
    }

    /// The best-placed `<time>` that holds a date (`BodyPlace`), in its
    /// `datetime`, or an element with a date in one of `dateAttributes`
    /// (epoch seconds or milliseconds, or a date string), else in its text ("May 3, 2016", read as a dateline is):
    /// the lead article's header's, else the article's, else the first
    /// elsewhere; one in navigation, an aside or the page footer (a related
    /// article's, a comment's, a copyright's) only when there is no other.
    static func timeElementDate(in page: PageIndex) -> (place: BodyPlace, value: Picked<String>)? {
        // A `<time class="updated">` counts only when no other gives a date:
        // templates write it beside the published one, sometimes first.
        timeElementDate(in: page, updates: false) ?? timeElementDate(in: page, updates: true)
    }

    private static func timeElementDate(in page: PageIndex, updates: Bool) -> (place: BodyPlace, value: Picked<String>)? {
        let dayFirst = writesDayFirst(page)
        return bestPlaced(in: page) { position, element in
            guard updates || !(namesUpdate(element) || labelledUpdate(at: position, in: page)) else { return nil }
            for attribute in dateAttributes {
                guard let value = element[attribute] else { continue }
                if let date = epochDate(value) ?? dateText(value, dayFirst: dayFirst) { return Picked(value: date, source: attribute) }
            }
            guard element.name == "time",
                  let date = dateText(element["datetime"], dayFirst: dayFirst)
                    ?? TextCleaner.clean(element.text).flatMap({ dateInText($0, dayFirst: dayFirst) }) else { return nil }
            return Picked(value: date, source: "time element")
        }
    }

    /// True when a token of the element's `class` names an update
    /// ("updated", "date-modified").
    static func namesUpdate(_ element: HTMLElement) -> Bool {
        guard let value = element["class"]?.lowercased(), ASCIIText.holds(value, "updat") || ASCIIText.holds(value, "modif") else { return false }
        return value.split { !$0.isLetter }.contains { $0.hasPrefix("update") || $0.hasPrefix("modif") }
    }

    /// True when the `<time>` at `position` in `page.fallbacks` sits in a
    /// label run that says update: the record just before it starts with
    /// one of `updatedDateLabels` (a whole word) and holds the `<time>`'s
    /// text, as its parent's text does (`<span>Updated <time>June 1,
    /// 2021</time></span>`, `<span>Updated:</span> <time>…</time>`); a
    /// `<time datetime>` with no text, when the record is the label alone.
    static func labelledUpdate(at position: Int, in page: PageIndex) -> Bool {
        let fallbacks = page.fallbacks
        guard position > 0, position < fallbacks.count, fallbacks[position].element.name == "time",
              fallbacks[position - 1].element.name != "time",
              let label = TextCleaner.clean(fallbacks[position - 1].element.text), label.count <= 120 else { return false }
        let text = TextCleaner.clean(fallbacks[position].element.text)
        if let text, !ASCIIText.holds(label, text) { return false }
        let lower = label.lowercased()
        return updatedDateLabels.contains { word in
            guard lower.hasPrefix(word) else { return false }
            let rest = lower.dropFirst(word.count)
            guard text == nil else { return rest.first.map { !$0.isLetter && !$0.isNumber } ?? true }
            return rest.allSatisfy { !$0.isLetter && !$0.isNumber }
        }
    }

    /// The date the page shows: its best-placed `<time>`, else the
    /// date in its best-placed byline; a byline's date wins only by a
    /// better place (a dateline in the article over a `<time>` in an aside).
    static func shownDate(in page: PageIndex) -> Picked<String>? {
        let time = timeElementDate(in: page)
        if let time, time.place == .leadHeader { return time.value }
        let found = [time, datelineDate(in: page), labelledDate(in: page), namedDateElementDate(in: page)].compactMap { $0 }
        // The best place wins; at the same place, the order above.
        return found.min { $0.place < $1.place }?.value
    }

    /// Labels that say the date after them is the page's own: published
    /// first, then updated or reviewed (a page's first date when it gives
    /// only that one).
    static let publishedDateLabels = [
        "published", "posted", "first published", "publié", "publicado", "veröffentlicht", "pubblicato", "公開", "配信", "公表", "発行",
        "发布", "發布", "發佈", "gepubliceerd", "입력", "기사입력", "등록",
    ]
    static let updatedDateLabels = [
        "updated", "last updated", "reviewed", "last reviewed", "modified", "更新", "最終更新",
        "stand", "actualizado", "atualizado", "aktualisiert", "aggiornato", "bijgewerkt", "mis à jour", "수정",
    ]

    /// A short recorded text that starts with a date label and holds a
    /// whole date ("Published: March 9, 2021", "Reviewed: 9 Mar 2021",
    /// "公開日：2021年3月9日"); a relative time ("4 months ago") is no date.
    /// A published label wins over an updated one at the same place.
    static func labelledDate(in page: PageIndex) -> (place: BodyPlace, value: Picked<String>)? {
        let dayFirst = writesDayFirst(page)
        for labels in [publishedDateLabels, updatedDateLabels] {
            let found = bestPlaced(in: page) { _, element -> Picked<String>? in
                guard element.name != "time", let text = TextCleaner.clean(element.text) else { return nil }
                if element.name == "tr" || element.name == "dl" { return rowDate(text, labels: labels, dayFirst: dayFirst) }
                if ASCIIText.isASCII(text) {
                    // Cleaned text holds no CR LF: each character is one byte.
                    guard text.utf8.count <= 120,
                          labels.contains(where: { ASCIIText.hasPrefix(text, $0) && endsWord(text.utf8.dropFirst($0.utf8.count).first) })
                    else { return nil }
                } else {
                    guard text.count <= 120 else { return nil }
                    let lower = text.lowercased()
                    guard labels.contains(where: { label in
                        lower.hasPrefix(label) && (!spacesWords(label) || endsWord(lower.dropFirst(label.count).first))
                    }) else { return nil }
                }
                guard let date = cjkDate(text)
                    ?? (hasYear(text) ? dateInText(text, dayFirst: dayFirst) ?? dateInText(afterCJKLabel(text), dayFirst: dayFirst) : nil)
                else { return nil }
                return Picked(value: date, source: "labelled date")
            }
            if let found { return found }
        }
        return nil
    }

    /// Whether what follows a label ends it as a word: nothing, or no
    /// letter ("Stand: 9.3.2021", not "Standing room only on March 9").
    private static func endsWord(_ next: UInt8?) -> Bool {
        next.map { !ASCIIByte.isLetter($0) } ?? true
    }

    private static func endsWord(_ next: Character?) -> Bool {
        next.map { !$0.isLetter } ?? true
    }

    /// Whether `label` is written in a script that spaces its words (its
    /// last letter Latin), so that a letter after it makes another word;
    /// CJK labels run on into their value ("公開日", "발행일").
    private static func spacesWords(_ label: String) -> Bool {
        label.unicodeScalars.last.map { $0.value < 0x250 } ?? false
    }

    /// The text after a CJK label glued to its value ("发布时间：2021-03-09
    /// 08:15" → "2021-03-09 08:15"): from the first ASCII letter or digit on.
    static func afterCJKLabel(_ text: String) -> String {
        String(text.drop { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
    }

    /// How far after its label a row's date may start and end (characters):
    /// a list's label and value sit side by side.
    static let rowDateSpan = 40

    /// The date a table row or description list gives after one of
    /// `labels` ("配信開始日 2021年3月9日", "Published 9 March 2021"),
    /// the label starting a word; nil when no label is followed by one.
    static func rowDate(_ text: String, labels: [String], dayFirst: Bool = false) -> Picked<String>? {
        let lower = text.lowercased()
        for label in labels where ASCIIText.mayHold(lower, label) {
            for range in lower.ranges(of: label) {
                let atWordStart = range.lowerBound == lower.startIndex || !lower[lower.index(before: range.lowerBound)].isLetter
                guard atWordStart else { continue }
                let offset = lower.distance(from: lower.startIndex, to: range.upperBound)
                // The label's own word ("配信開始日", "Published:") and the value after it.
                let after = String(text.dropFirst(offset).prefix(rowDateSpan))
                let value = after.drop { !$0.isWhitespace && !$0.isNumber && !fullWidthDigitLike($0) }
                guard hasYear(after) || after.contains("年") else { continue }
                if let date = cjkDate(String(value)) ?? dateInText(String(value), dayFirst: dayFirst) {
                    return Picked(value: date, source: "labelled date")
                }
            }
        }
        return nil
    }

    private static func fullWidthDigitLike(_ character: Character) -> Bool {
        character.unicodeScalars.first.map { (0xFF10...0xFF19).contains($0.value) } ?? false
    }
}
