/// What the head scanner saw of a page: the elements that carry metadata, in
/// document order, plus a few document-level facts.
///
/// This is the contract between `HTMLHead` (which fills it) and the metadata
/// rules in `LinkPeek` (which read it). It holds plain Swift values only.
public struct HeadDocument: Sendable, Equatable {
    /// Elements that carry metadata, in document order: every `<meta>`,
    /// `<link>`, `<base>`, the text of `<title>` elements outside `<svg>`,
    /// `<script type="application/ld+json">` bodies, and any element with an
    /// `itemprop` attribute (with its text, trimmed, at most 1,024 bytes).
    /// From the body also a bounded set of fallback elements, marked
    /// `isFallback` (see `ElementCollector+Body`).
    public var elements: [HTMLElement]
    /// `<html lang>`, as written.
    public var htmlLang: String?
    /// The WHATWG name of the encoding the bytes were decoded with
    /// (for example "UTF-8", "Shift_JIS", "GBK", "windows-1252").
    public var encoding: String
    /// The encoding the page declared (HTTP charset or `<meta>`) when its
    /// bytes proved to be UTF-8 instead (`encoding` is then "UTF-8").
    public var declaredEncodingThatDidNotFit: String?
    /// True once the end of the head was seen (`</head>` or the body started).
    public var headComplete: Bool

    public init(
        elements: [HTMLElement] = [],
        htmlLang: String? = nil,
        encoding: String = "UTF-8",
        headComplete: Bool = false
    ) {
        self.elements = elements
        self.htmlLang = htmlLang
        self.encoding = encoding
        self.headComplete = headComplete
    }
}

/// One element as the scanner saw it.
public struct HTMLElement: Sendable, Equatable {
    /// Lowercased tag name ("meta", "link", "title", "script", ...).
    public var name: String
    /// Attributes with lowercased names; values decoded (entities resolved),
    /// not trimmed. When a name repeats, the first value wins.
    public var attributes: [String: String]
    /// Text content, for `title`, JSON-LD `script` and `itemprop` elements,
    /// and for fallback elements that have text (trimmed, at most 1,024 bytes).
    public var text: String?
    /// True when the element came after the head ended (in the body).
    public var inBody: Bool
    /// True when the element was recorded only as a body fallback (media,
    /// images, bylines, the first headings and paragraphs, `<time>`), not
    /// because it declares metadata. Such elements say what a page shows,
    /// which is weaker evidence than what it declares.
    public var isFallback: Bool

    public init(
        name: String,
        attributes: [String: String] = [:],
        text: String? = nil,
        inBody: Bool = false,
        isFallback: Bool = false
    ) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.inBody = inBody
        self.isFallback = isFallback
    }

    public subscript(attribute: String) -> String? { attributes[attribute] }
}
