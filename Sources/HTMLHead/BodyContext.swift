/// Where a body element sat when the scanner recorded it: inside which of
/// the page's landmarks (an `<article>`, its `<header>`, a `<nav>`, a
/// `<footer>`, …) and how deep.
///
/// These are plain facts about the markup; what they mean — that a date in
/// an `<aside>` belongs to another article, that a paragraph in a `<nav>` is
/// no summary — is for the rules in LinkPeek to decide. ARIA landmark roles
/// count as the element they stand for: `role=navigation` as `<nav>`,
/// `role=complementary` as `<aside>`, `role=contentinfo` as a page
/// `<footer>`, `role=banner` as a page `<header>`, `role=main` as `<main>`,
/// `role=article` as `<article>`, `role=dialog` and `role=alertdialog` as
/// `<dialog>`.
public struct BodyContext: Sendable, Hashable {
    /// The landmarks an element is inside, as flags.
    public struct Landmarks: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Inside an `<article>`.
        public static let article = Landmarks(rawValue: 1 << 0)
        /// Inside `<main>`.
        public static let main = Landmarks(rawValue: 1 << 1)
        /// Inside the page's first `<article>` that is not inside one of the
        /// caller's `BodyRecords.apart` landmarks.
        public static let firstArticle = Landmarks(rawValue: 1 << 2)
        /// Inside an `<article>` that is itself inside an `<article>` (a
        /// comment or a teaser within a story).
        public static let nestedArticle = Landmarks(rawValue: 1 << 3)
        /// Inside a `<header>` that is inside no `<article>` or `<main>`.
        public static let header = Landmarks(rawValue: 1 << 4)
        /// Inside a `<header>` within an `<article>` or `<main>`.
        public static let articleHeader = Landmarks(rawValue: 1 << 5)
        /// Inside a `<footer>` that is inside no `<article>` or `<main>`.
        public static let footer = Landmarks(rawValue: 1 << 6)
        /// Inside a `<footer>` within an `<article>` or `<main>`.
        public static let articleFooter = Landmarks(rawValue: 1 << 7)
        /// Inside `<nav>`.
        public static let nav = Landmarks(rawValue: 1 << 8)
        /// Inside `<aside>`.
        public static let aside = Landmarks(rawValue: 1 << 9)
        /// Inside `<form>`.
        public static let form = Landmarks(rawValue: 1 << 10)
        /// Inside `<dialog>`, `role=dialog` or `role=alertdialog` (cookie
        /// consent boxes, newsletter prompts, paywall notices).
        public static let dialog = Landmarks(rawValue: 1 << 11)
        /// Inside an element whose `class` or `id` names one of the
        /// caller's areas (`BodyRecords.areaWords`, `areaPrefixes`: a
        /// related-posts list or a comment thread written as `<div>`s).
        /// `<html>`, `<body>`, `<main>` and `<article>` never set it: their
        /// classes describe the whole page or story.
        public static let markedArea = Landmarks(rawValue: 1 << 12)
        /// Inside an element a reader does not see: one with the `hidden`
        /// attribute, `aria-hidden="true"`, an inline `style` of
        /// `display: none` or `visibility: hidden`, or a screen-reader-only
        /// class (`sr-only`, `visually-hidden`, `screen-reader-text`). The scanner keeps the
        /// text inside it out of every body record's text but a link's
        /// (a hidden `rel=author` link is written for machines, as microdata is).
        public static let hidden = Landmarks(rawValue: 1 << 13)
        /// Inside `<noscript>`: what a page shows a reader without scripts,
        /// such as the real `<img>` of a lazy-loaded picture whose visible
        /// one holds a placeholder until a script swaps it.
        public static let noscript = Landmarks(rawValue: 1 << 14)

        /// How many flags there are (each bit below `1 << count` is one).
        static let count = 15
    }

    /// The landmarks the element is inside (its own included: an `<article>`
    /// element is inside `.article`).
    public var landmarks: Landmarks
    /// How many elements enclose it (`<html>` is 1), at most `maximumDepth`.
    public var depth: Int

    /// Depths are counted up to this: deeper ones say nothing more.
    public static let maximumDepth = 255

    public init(landmarks: Landmarks = [], depth: Int = 0) {
        self.landmarks = landmarks
        self.depth = min(max(0, depth), BodyContext.maximumDepth)
    }

    /// True when the element is inside any of `landmarks`.
    public func isInside(_ landmarks: Landmarks) -> Bool {
        !self.landmarks.isDisjoint(with: landmarks)
    }
}
