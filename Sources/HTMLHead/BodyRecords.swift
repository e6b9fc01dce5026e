/// Which body elements the scanner records besides the plain ones, as data
/// the caller gives: HTMLHead matches the words, the caller (LinkPeek's
/// rules) chooses them and decides what a recorded element means.
///
/// Without words the scanner records, from the body, only elements by their
/// tag: `<video>`, `<audio>` (and the `<source>`/`<track>` inside a recorded
/// one), `<img>`, `<h1>`, `<p>`, `<time>`, table rows and description lists, and a few `<div>`s' own text
/// (`ElementCollector+TextBlock`).
public struct BodyRecords: Sendable, Equatable {
    /// Lowercase substrings of `class`, `id`, `rel` or `data-testid` that make any body
    /// element worth recording with its text.
    public var markers: [String]
    /// Lowercase substrings of an `<a href>` that make the link worth recording.
    public var linkHrefs: [String]
    /// Lowercase endings of an `<a href>`'s path (before `?` and `#`) that
    /// make the link worth recording.
    public var linkPathEndings: [String]
    /// Landmarks whose elements are counted against caps of their own (see
    /// `BodyContext`): a page's navigation, related-article lists and
    /// footer, which may come before its article, then cannot use up the
    /// records the article's byline, `<time>` and paragraphs need.
    public var apart: BodyContext.Landmarks
    /// Lowercase words that, as a whole token of an element's `class` or
    /// `id`, make the element a `.markedArea` landmark. Tokens are the runs
    /// of ASCII letters and digits: `class="post comment-list"` has the
    /// tokens "post", "comment" and "list".
    public var areaWords: [String]
    /// Lowercase words that, beginning a token of `class` or `id`, make the
    /// element a `.markedArea` landmark ("related" in `jp-relatedposts`).
    public var areaPrefixes: [String]

    /// Lowercase attribute names that carry a date on any element
    /// (`data-timestamp`): such an element is recorded as a dated one, with
    /// its attributes and text, against the `<time datetime>` cap.
    public var dateAttributes: [String]

    /// Lowercase words that, as a whole token of an element's `class` or
    /// `id` ("date" in `article-date`, "published"), make any body element
    /// worth recording with its text: templates that write the page's
    /// date without `<time>` (`<div class="date">March 9, 2021</div>`).
    /// Tokens are runs of ASCII letters and digits, as for `areaWords`.
    public var dateWords: [String]

    /// Lowercase words that, starting the first text of any body element
    /// ("By", "Published", "公開"), make it worth recording with its text:
    /// a label run. An ASCII label ends at a byte that is no ASCII letter or
    /// digit ("By:" and "By Ann", not "Bytes").
    public var labels: [String]

    public init(markers: [String] = [], linkHrefs: [String] = [], linkPathEndings: [String] = [],
                apart: BodyContext.Landmarks = [], areaWords: [String] = [], areaPrefixes: [String] = [],
                dateAttributes: [String] = [], dateWords: [String] = [], labels: [String] = []) {
        self.markers = markers
        self.dateWords = dateWords
        dateWordBytes = Self.bytes(dateWords)
        self.labels = labels
        labelBytes = Self.bytes(labels)
        self.dateAttributes = dateAttributes
        dateAttributeBytes = Self.bytes(dateAttributes)
        self.linkHrefs = linkHrefs
        self.linkPathEndings = linkPathEndings
        self.apart = apart
        self.areaWords = areaWords
        self.areaPrefixes = areaPrefixes
        markerBytes = Self.bytes(markers)
        linkHrefBytes = Self.bytes(linkHrefs)
        markerSet = WordSet(markerBytes)
        linkHrefSet = WordSet(linkHrefBytes)
        linkPathEndingBytes = Self.bytes(linkPathEndings)
        areaWordBytes = Self.bytes(areaWords)
        areaPrefixBytes = Self.bytes(areaPrefixes)
    }

    private static func bytes(_ words: [String]) -> [[UInt8]] {
        words.map { Array($0.lowercased().utf8) }.filter { !$0.isEmpty }
    }

    // The same words as bytes, matched against attribute values in place.
    let markerBytes: [[UInt8]]
    let linkHrefBytes: [[UInt8]]
    let linkPathEndingBytes: [[UInt8]]
    let areaWordBytes: [[UInt8]]
    let areaPrefixBytes: [[UInt8]]
    let dateAttributeBytes: [[UInt8]]
    let dateWordBytes: [[UInt8]]
    let labelBytes: [[UInt8]]
    /// `markerBytes` and `linkHrefBytes`, looked for in one pass over a value.
    let markerSet: WordSet
    let linkHrefSet: WordSet

    /// True when there are no words at all: only the plain elements are recorded.
    var isEmpty: Bool {
        markerBytes.isEmpty && linkHrefBytes.isEmpty && linkPathEndingBytes.isEmpty && dateAttributeBytes.isEmpty
            && labelBytes.isEmpty && dateWordBytes.isEmpty
    }
}
