/// What the head scanner saw of a page: the elements that carry metadata, in
/// document order, plus a few document-level facts.
///
/// This is the contract between `HTMLHead` (which fills it) and the metadata
/// rules in `LinkPeek` (which read it). It holds plain Swift values only.
public struct HeadDocument: Sendable, Equatable {
    /// Elements that carry metadata, in document order: every `<meta>` with
    /// a `name`, `property`, `http-equiv`, `charset` or `itemprop`, every
    /// `<link>` and `<base>`, the text of `<title>` elements outside `<svg>`,
    /// `<script type="application/ld+json">` bodies (the first 100), and any
    /// element with an `itemprop` attribute (with its text, trimmed, at most
    /// 1,024 bytes).
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
    /// True once the end of the head was seen (`</head>` or the body
    /// started). Past the element or byte cap the rest of a page is not
    /// parsed, and only an end written as `</head>`, `<body>` or `<frameset>`
    /// is seen.
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
    public var attributes: [String: String] {
        get { Dictionary(attributeList.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }) }
        set { attributeList = newValue.map { Attribute(name: $0.key, value: $0.value) } }
    }
    /// The same, in document order, each name once: an element has a few
    /// attributes and the rules look up several per element, which a short
    /// array answers faster than hashing every name into a dictionary.
    public private(set) var attributeList: [Attribute] {
        didSet { index = HTMLElement.index(of: attributeList) }
    }
    /// Positions by name, only for an element with more than `linearLimit`
    /// attributes (one made by hand may have hundreds): lookups stay hashed
    /// there. The scanner's elements have at most `TagGate.attributeLimit`,
    /// few enough to look through, and building the index cost more than the
    /// rules' lookups save.
    private var index: [String: Int]?
    private static let linearLimit = TagGate.attributeLimit
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
    /// Where a body element sat: the landmarks around it and its depth
    /// (`BodyContext`); empty for head elements.
    public var context: BodyContext
    /// For a text block (`ElementCollector+TextBlock`): how many of the
    /// elements recorded after it lie inside it (a `<p>` after its own
    /// lines); 0 for every other element.
    public var recordedInside = 0

    /// One attribute: its lowercased name and its value.
    public struct Attribute: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    public init(
        name: String,
        attributes: [String: String] = [:],
        text: String? = nil,
        inBody: Bool = false,
        isFallback: Bool = false,
        context: BodyContext = BodyContext()
    ) {
        self.init(name: name, attributeList: attributes.map { Attribute(name: $0.key, value: $0.value) }, text: text,
                  inBody: inBody, isFallback: isFallback, context: context)
    }

    /// An element whose attributes are already in order, each name once (the scanner's).
    init(name: String, attributeList: [Attribute], text: String? = nil, inBody: Bool, isFallback: Bool,
         context: BodyContext = BodyContext()) {
        self.name = name
        self.attributeList = attributeList
        index = HTMLElement.index(of: attributeList)
        self.text = text
        self.inBody = inBody
        self.isFallback = isFallback
        self.context = context
    }

    public subscript(attribute: String) -> String? {
        if let index { return index[attribute].map { attributeList[$0].value } }
        for pair in attributeList where pair.name == attribute { return pair.value }
        return nil
    }

    private static func index(of list: [Attribute]) -> [String: Int]? {
        guard list.count > linearLimit else { return nil }
        var index = [String: Int](minimumCapacity: list.count)
        for (position, pair) in list.enumerated() where index[pair.name] == nil { index[pair.name] = position }
        return index
    }

    /// Equal when name, text, flags, context and the set of attributes are (their order does not matter).
    public static func == (lhs: HTMLElement, rhs: HTMLElement) -> Bool {
        lhs.name == rhs.name && lhs.text == rhs.text && lhs.inBody == rhs.inBody && lhs.isFallback == rhs.isFallback
            && lhs.context == rhs.context
            && lhs.attributeList.count == rhs.attributeList.count
            && lhs.attributeList.allSatisfy { rhs[$0.name] == $0.value }
    }
}
