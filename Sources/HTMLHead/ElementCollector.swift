/// Turns the parser's start-tag, end-tag and text events into a
/// `HeadDocument`, keeping only what carries metadata.
///
/// It knows nothing of libxml2: events arrive as tag names and an
/// `AttributeList`, so it can be driven directly in tests. Memory is bounded
/// whatever the input: texts, attribute values, the element count and the
/// total recorded bytes all have caps.
final class ElementCollector {
    /// Caps that keep a hostile or huge page from growing memory without end.
    struct Limits {
        var titleBytes = 1 << 20
        var jsonLDBytes = 1 << 20
        /// JSON-LD blocks recorded: the rules parse each one whole, and real
        /// pages carry a few (the conformance corpus's most: 35); 2,000 of
        /// them in a 2 MiB head took ~45 ms in the rules.
        var jsonLDBlocks = 100
        var itempropBytes = 1024
        var attributeValueBytes = 64 * 1024
        /// Real pages record at most ~150 (the conformance corpus's largest:
        /// 134); each recorded element costs a few microseconds here and in
        /// the rules, so a page of 100,000 metas must not get them all.
        var elements = 2_000
        var totalBytes = 16 << 20
        var openCaptures = 32
        var fallbacks = FallbackLimits()
    }

    /// An element whose text is being collected until its end tag.
    struct Capture {
        enum Kind {
            /// Text as written (titles, JSON-LD).
            case raw
            /// Text trimmed at its edges, words parted where blocks part them.
            case trimmed
            /// As `.trimmed`, on one line: line ends are spaces (a label run).
            case line
            /// A `<div>`'s own text (`FallbackKind.textBlock`): line ends are
            /// spaces, each `<br>` a line end, child blocks left out.
            case textBlock
        }
        var index: Int
        var depth: Int
        var kind: Kind
        var limit: Int
        /// A body fallback's capture: text inside `.hidden` elements is left out.
        var visibleOnly = false
        var bytes: [UInt8] = []
        /// A text block's: whether it has text of its own yet, and the depth
        /// of the child block whose text is being left out.
        var hasOwnText = false
        var skippedBlockDepth: Int?
        /// A label run carried on past its element (`ElementCollector+Labels`):
        /// where its text after the label starts.
        var carriedFrom: Int?

        /// Trimmed at its edges (every kind but `.raw`).
        var isTrimmed: Bool { kind != .raw }
    }

    var document = HeadDocument()
    let limits: Limits
    private(set) var depth = 0
    /// How many `<svg>`/`<math>` elements are open: a `<title>` inside them
    /// names a drawing, not the page.
    private(set) var foreignDepth = 0
    var captures: [Capture] = []
    var recordedBytes = 0
    /// How many `<script>`/`<style>` elements are open: their code is not
    /// text a reader sees, so trimmed captures skip it.
    private(set) var codeDepth = 0
    /// Open `<video>`/`<audio>` elements, and whether the innermost was
    /// recorded (only then are its `<source>` children kept).
    private var playerDepth = 0
    private var playerRecorded = false
    var fallbackCounts = FallbackCounts()
    /// The landmarks around the element being parsed (`BodyContext`), and the
    /// fallbacks kept inside the caller's `BodyRecords.apart` ones, counted apart.
    private(set) var bodyContext = BodyContextTracker()
    var apartCounts = FallbackCounts()
    /// Elements recorded or passed over, against `limits.elements` (one
    /// stored count: it is read for every tag). Passed over are `<meta>`s
    /// that name nothing (`metaKeyAttributes`) and JSON-LD blocks past
    /// `limits.jsonLDBlocks`: they count as if recorded, since libxml2
    /// parses them all the same (the cap bounds that work too), and so what
    /// else is recorded of a page never depends on them.
    var elementCount = 0
    private var jsonLDBlocks = 0
    /// Text blocks given up on although recorded (see `ElementCollector+TextBlock`).
    var textBlockMisses = 0
    /// A text block closed at its byte limit while its `<div>` is still
    /// open: where it was recorded and the `<div>`'s depth, to count what
    /// is recorded inside it until that ends (`recordedInside`).
    var fullTextBlock: (index: Int, depth: Int)?
    /// The innermost element, while it has had neither text nor a child:
    /// its first text may start with a label (`BodyRecords.labels`).
    var labelCandidate: LabelCandidate?

    /// The run labels as the tag gate matches them (`TagGate+Labels`).
    let labelWords: TagGate.LabelWords

    init(limits: Limits = Limits()) {
        self.limits = limits
        labelWords = TagGate.LabelWords(limits.fallbacks.records.labelBytes)
        bodyContext.apart = limits.fallbacks.records.apart
        bodyContext.areas = BodyContextTracker.AreaWords(limits.fallbacks.records)
    }

    var headComplete: Bool { document.headComplete }

    /// Nothing more can be recorded (the element or byte cap was reached,
    /// and no element is capturing text): from here on only the end of the
    /// head matters. The caps never go down, so this stays true.
    var isFull: Bool {
        captures.isEmpty && (elementCount >= limits.elements || recordedBytes >= limits.totalBytes)
    }

    /// What the tag gate may drop of the text that follows (`TagGate.BodyText`):
    /// body text while nothing captures it, libxml2 being `insideElement`.
    /// `previous` is the gate's from the chunk before: what it carries on.
    func bodyText(insideElement: Bool, after previous: TagGate.BodyText) -> TagGate.BodyText {
        var bodyText = TagGate.BodyText()
        // A first text the gate kept for its label, not yet handed over by
        // libxml2: its element still waits for it (`labelCandidate`).
        let labelWaiting = previous.keptLabel && labelCandidate != nil
        bodyText.drops = insideElement && document.headComplete && captures.isEmpty && !labelWaiting
        bodyText.keptLabel = labelWaiting
        bodyText.awaitsFirstText = previous.awaitsFirstText
        let recording = elementCount < limits.elements && recordedBytes < limits.totalBytes
        bodyText.paragraphs = recording && fallbackCounts[.paragraph] < limits.fallbacks.cap(.paragraph)
        bodyText.headings = recording && fallbackCounts[.heading] < limits.fallbacks.cap(.heading)
        bodyText.divisions = recording && readsTextBlocks
        // A bare `<time>` in a landmark counted apart may be recorded while the others' cap is full.
        bodyText.times = recording && (fallbackCounts[.textTime] < limits.fallbacks.cap(.textTime)
            || apartCounts[.textTime] < limits.fallbacks.cap(.textTime))
        let labelsLeft = fallbackCounts[.label] < limits.fallbacks.labels || apartCounts[.label] < limits.fallbacks.labels
        if recording, labelsLeft, document.headComplete { bodyText.labels = labelWords }
        return bodyText
    }

    /// `<body>`/`<frameset>` started or `</head>` ended, for a full collector.
    func bodyStarted() {
        document.headComplete = true
    }

    func setEncoding(_ name: String) {
        document.encoding = name
    }

    /// What has been collected so far, with the partial text of elements
    /// still open.
    var snapshot: HeadDocument {
        var result = document
        for capture in captures {
            result.elements[capture.index].text = ElementCollector.text(of: capture)
        }
        return result
    }

    /// Ends every open element, as at the end of input.
    func closeAll() {
        while let capture = captures.popLast() { finish(capture) }
    }

    /// An element started. Its name is classified (`ElementName`), and
    /// spelled out as a `String` only if the element is recorded.
    func start(_ tag: ElementTag, _ attributes: AttributeList) {
        let name = tag.name
        separateBlocks(name)
        depth += 1
        bodyContext.open(name, attributes, depth: depth)
        labelCandidate = nil
        if !captures.isEmpty { textBlockChild(name) }
        let recorded = document.elements.count
        defer { considerLabel(tag, recorded: document.elements.count != recorded) }
        switch name {
        case .html:
            // XHTML pages may carry only the XML spelling.
            if document.htmlLang == nil, let lang = attributes.value(of: "lang") ?? attributes.value(of: "xml:lang") {
                document.htmlLang = lang
            }
        case .body, .frameset:
            document.headComplete = true
        case .svg, .math:
            foreignDepth += 1
        case .script, .style:
            codeDepth += 1
        default:
            break
        }
        guard elementCount < limits.elements, recordedBytes < limits.totalBytes else { return }
        switch name {
        case .meta where !attributes.containsAny(of: ElementCollector.metaKeyAttributes):
            // Nothing reads it: no attribute is copied.
            elementCount += 1
        case .meta, .link, .base:
            record(tag, attributes)
        case .title where foreignDepth == 0:
            record(tag, attributes, capture: .raw, limit: limits.titleBytes)
        case .script where ElementCollector.isJSONLD(attributes):
            guard jsonLDBlocks < limits.jsonLDBlocks else {
                elementCount += 1
                return
            }
            jsonLDBlocks += 1
            record(tag, attributes, capture: .raw, limit: limits.jsonLDBytes)
        default:
            guard attributes.contains("itemprop") else {
                recordFallback(tag, attributes)
                return
            }
            // Void elements have no text; their value is in an attribute.
            record(tag, attributes, capture: name.isVoid ? nil : .trimmed, limit: limits.itempropBytes)
        }
    }

    /// Records a body element the rules may fall back on, within its kind's cap.
    /// Block elements and line breaks separate words where a reader sees
    /// them separated (`<div>Ann</div><div>News</div>` reads "Ann News"),
    /// so trimmed captures get a space at their edges.
    private func separateBlocks(_ name: ElementName) {
        guard !captures.isEmpty, name.isBlock else { return }
        for position in captures.indices where captures[position].kind == .trimmed || captures[position].kind == .line {
            guard let last = captures[position].bytes.last, !ByteCursor.isSpace(last),
                  captures[position].bytes.count < captures[position].limit else { continue }
            captures[position].bytes.append(UInt8(ascii: " "))
        }
    }

    private func recordFallback(_ tag: ElementTag, _ attributes: AttributeList) {
        let name = tag.name
        let isPlayer = name == .video || name == .audio
        if isPlayer {
            playerDepth += 1
            playerRecorded = false
        }
        let apart = bodyContext.isInside(limits.fallbacks.records.apart)
        guard document.headComplete, foreignDepth == 0, codeDepth == 0 else { return }
        guard let kind = limits.fallbacks.kind(
                  of: name, attributes, insidePlayer: playerDepth > 0 && playerRecorded,
                  markedFull: (apart ? apartCounts : fallbackCounts)[.marked] >= limits.fallbacks.marked)
        else {
            if name == .div, !apart, readsTextBlocks { recordTextBlock(tag) }
            return
        }
        guard (apart ? apartCounts : fallbackCounts)[kind] < limits.fallbacks.cap(kind) else { return }
        if apart { apartCounts[kind] += 1 } else { fallbackCounts[kind] += 1 }
        if isPlayer { playerRecorded = true }
        let hasText = !name.isVoid && !isPlayer
        record(tag, attributes, capture: hasText ? .trimmed : nil, limit: limits.fallbacks.textBytes, isFallback: true)
    }

    /// True while an end tag's name matters beyond the few `PushParser.endMatters`
    /// lists: some element is capturing text (its end, block separators).
    var needsEndTagName: Bool { !captures.isEmpty }

    /// The end of an element whose name does not matter here (see `needsEndTagName`).
    func endUnnamed() {
        labelCandidate = nil
        if fullTextBlock != nil { endFullTextBlock() }
        bodyContext.close(depth: depth)
        depth = max(0, depth - 1)
    }

    /// An element ended (see `PushParser.endMatters` for when it is named).
    func end(_ name: ElementName) {
        labelCandidate = nil
        separateBlocks(name)
        for position in captures.indices where captures[position].skippedBlockDepth == depth {
            captures[position].skippedBlockDepth = nil
        }
        while let last = captures.last, last.depth >= depth {
            var capture = captures.removeLast()
            if carriesLabel(&capture) { captures.append(capture) } else { finish(capture) }
        }
        endCarriedLabel()
        if fullTextBlock != nil { endFullTextBlock() }
        switch name {
        case .head:
            document.headComplete = true
        case .svg, .math:
            foreignDepth = max(0, foreignDepth - 1)
        case .script, .style:
            codeDepth = max(0, codeDepth - 1)
        case .video, .audio:
            playerDepth = max(0, playerDepth - 1)
            if playerDepth == 0 { playerRecorded = false }
        default:
            break
        }
        bodyContext.close(depth: depth)
        depth = max(0, depth - 1)
    }

    /// Appends text to every element being captured, each up to its cap.
    func text(_ bytes: UnsafeRawBufferPointer) {
        if let candidate = labelCandidate, candidate.depth == depth { labelRun(candidate, bytes) }
        guard !captures.isEmpty else { return }
        let hidden = bodyContext.isInside(.hidden)
        var filledBlock = false
        for position in captures.indices {
            // Code inside a byline or an itemprop element is not its text.
            if codeDepth > 0, captures[position].isTrimmed { continue }
            // Nor is what the page hides from readers (declared microdata keeps it).
            if hidden, captures[position].visibleOnly { continue }
            // Nor a child block's, for a text block.
            if captures[position].skippedBlockDepth != nil { continue }
            let room = captures[position].limit - captures[position].bytes.count
            guard room > 0 else { continue }
            var start = 0
            if captures[position].isTrimmed, captures[position].bytes.isEmpty {
                // Leading whitespace would only eat the small budget.
                while start < bytes.count, ByteCursor.isSpace(bytes[start]) { start += 1 }
            }
            let end = min(bytes.count, start + room)
            let from = captures[position].bytes.count
            captures[position].bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            switch captures[position].kind {
            case .raw, .trimmed:
                break
            case .line:
                ElementCollector.joinLines(&captures[position].bytes, from: from)
            case .textBlock:
                ElementCollector.joinLines(&captures[position].bytes, from: from)
                if !captures[position].hasOwnText {
                    captures[position].hasOwnText = captures[position].bytes[from...].contains { !ByteCursor.isSpace($0) }
                }
                if captures[position].bytes.count >= captures[position].limit { filledBlock = true }
            }
        }
        if filledBlock { closeFullTextBlocks() }
    }

    private func record(
        _ tag: ElementTag, _ attributes: AttributeList, capture kind: Capture.Kind? = nil, limit: Int = 0,
        isFallback: Bool = false
    ) {
        let name = tag.string
        let values = attributes.attributes(maxValueBytes: limits.attributeValueBytes)
        elementCount += 1
        recordedBytes += values.reduce(name.utf8.count) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        document.elements.append(
            HTMLElement(name: name, attributeList: values, inBody: document.headComplete, isFallback: isFallback,
                        context: document.headComplete ? bodyContext.context(depth: depth) : BodyContext()))
        guard let kind, captures.count < limits.openCaptures else { return }
        // A link keeps hidden text, as microdata does: a hidden `rel=author`
        // link is written for machines, on purpose.
        captures.append(Capture(index: document.elements.count - 1, depth: depth, kind: kind, limit: limit,
                                visibleOnly: isFallback && tag.name != .a))
    }

    func finish(_ capture: Capture) {
        if capture.kind == .textBlock {
            finishTextBlock(capture)
            return
        }
        let text = ElementCollector.text(of: capture)
        recordedBytes += text.utf8.count
        document.elements[capture.index].text = text
    }
}
