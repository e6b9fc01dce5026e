import HTMLHead

/// Where on the page a body element sits, as the rules rank it: a page's
/// navigation, sidebars, related-article lists and footer carry other
/// people's names and other articles' dates, so a byline, `<time>` or
/// paragraph of the article itself wins over one there, whatever their order.
///
/// HTMLHead records the landmarks around each element (`BodyContext`); this
/// is the one place that judges them.
extension MetadataRules {
    /// Landmarks that hold no part of the article: navigation, sidebars and
    /// related lists (`<aside>`), forms (comment and search boxes), dialogs
    /// (cookie consent, newsletter prompts), the page's footer, and the
    /// same areas marked only by their `class` or `id` (`chromeAreaWords`).
    /// Their elements are also counted apart by the scanner
    /// (`BodyRecords.apart`), so that they cannot use up the records the
    /// article needs when they come first.
    static let chromeLandmarks: BodyContext.Landmarks = [.nav, .aside, .form, .dialog, .footer, .markedArea]

    /// Where paragraphs are never a summary: the chrome, and an article's
    /// own footer (tags, "originally published in", author notes).
    static let nonSummaryLandmarks: BodyContext.Landmarks = chromeLandmarks.union(.articleFooter)

    /// A body element's place, best first.
    enum BodyPlace: Int, Comparable {
        /// In the header of the page's lead article (its headline, byline and date).
        case leadHeader
        /// Elsewhere in the lead article, outside its chrome.
        case lead
        /// Outside the lead article and outside the chrome.
        case elsewhere
        /// In navigation, an aside, a form, a dialog, the page footer or an
        /// area marked as one of those by its class.
        case chrome

        static func < (lhs: BodyPlace, rhs: BodyPlace) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What the page's lead article is: its first `<article>` (not one nested
    /// in another, such as a comment), or, on a page whose recorded elements
    /// sit in no `<article>`, its `<main>`. Found once per page (`PageIndex.lead`).
    struct LeadArticle {
        let byArticle: Bool

        /// From where the page's recorded body elements and microdata sit.
        init(fallbacks: [(element: HTMLElement, order: Int)], properties: [PageIndex.Property]) {
            byArticle = fallbacks.contains { $0.element.context.landmarks.contains(.firstArticle) }
                || properties.contains { $0.context.landmarks.contains(.firstArticle) }
        }

        func place(of element: HTMLElement) -> BodyPlace {
            place(of: element.context, inBody: element.inBody)
        }

        /// A head element (microdata in a `<meta itemprop>`) speaks for the
        /// page, as the lead article's header does.
        func place(of context: BodyContext, inBody: Bool) -> BodyPlace {
            guard inBody else { return .leadHeader }
            if context.isInside(MetadataRules.chromeLandmarks) { return .chrome }
            let inLead = byArticle
                ? context.landmarks.contains(.firstArticle) && !context.landmarks.contains(.nestedArticle)
                : context.landmarks.contains(.main)
            guard inLead else { return .elsewhere }
            return context.landmarks.contains(.articleHeader) ? .leadHeader : .lead
        }
    }

    /// The best-placed value `value` finds among the page's body fallbacks
    /// (given each one's position in `page.fallbacks`; nil for none), as `best`.
    static func bestPlaced<Value>(
        in page: PageIndex, within: BodyPlace = .leadHeader,
        _ value: (_ position: Int, _ element: HTMLElement) -> Value?
    ) -> (place: BodyPlace, value: Value)? {
        best(of: page.fallbacks.enumerated(), within: within, place: { page.lead.place(of: $0.element.element) }) {
            value($0.offset, $0.element.element)
        }
    }

    /// The best-placed value `value` finds among `items`: the first at the
    /// best place, places better than `within` counting as `within` (for a
    /// summary, the article's header and its text are one place). `value` is
    /// asked only where it could still win.
    static func best<Item, Value>(
        of items: some Sequence<Item>, within: BodyPlace = .leadHeader,
        place: (Item) -> BodyPlace, _ value: (Item) -> Value?
    ) -> (place: BodyPlace, value: Value)? {
        var best: (place: BodyPlace, value: Value)?
        for item in items {
            let place = max(place(item), within)
            guard best.map({ place < $0.place }) ?? true, let found = value(item) else { continue }
            best = (place, found)
            if place == within { break }
        }
        return best
    }
}
