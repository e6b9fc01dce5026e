/// Lets UTF-8 through to the push parser only at construct boundaries, so
/// that libxml2 never sees a tag, comment or script cut by a chunk boundary.
///
/// Why: libxml2 2.9's push parser looks for the end of an unfinished
/// construct (`>`, `-->`, `</script`) again from its start each time a chunk
/// arrives, and `PushParser` must clear the index that would let it resume
/// (see `PushParser.push`). A 1 MiB attribute value fed in 4 KiB chunks
/// was scanned 256 times over: 2 MiB took about a second, 4 MiB over three.
/// Here every byte is looked at once, and a construct that spans chunks is
/// handed over whole when it ends.
///
/// It also bounds what a hostile page can make anyone hold: past
/// `valueLimit` bytes an attribute value is cut (at a character boundary),
/// past `commentLimit` a comment's text, past `rawTextLimit` a script's or
/// style's. No rule reads further than that (rules keep at most 8 KiB of a
/// value), and the dropped bytes are never copied.
///
/// And it drops what no rule reads before libxml2 has to: the text of every
/// `<style>`, and of every `<script>` whose tag does not mention JSON (the
/// JSON-LD type); the elements themselves still go through, empty. On
/// ordinary heads that is most of the bytes (stylesheets and code), which
/// libxml2 would otherwise walk character by character.
///
/// The states follow the HTML tokenizer closely enough for the one thing
/// that matters here, finding where a construct ends: tags with quoted and
/// unquoted attribute values, comments, other markup declarations and
/// processing instructions, and script and style text up to their end tags.
struct TagGate {
    static let valueLimit = 64 * 1024
    /// Text between two tags: no element keeps more than its first 64 KiB
    /// (titles; body fallbacks keep 1 KiB), and libxml2 decodes every
    /// character reference of what it is given (650,000 took ~45 ms).
    static let textLimit = 64 * 1024
    static let commentLimit = 4 * 1024
    static let rawTextLimit = 1024 * 1024
    /// Attributes kept of one tag: libxml2 compares each new attribute's
    /// name with every earlier one (200,000 attributes took 25 s; 2 MiB of
    /// `<meta>`s of 256 short attributes took 330 ms with a limit of 256).
    /// The open corpus's longest tag has 78, none past the 32nd read by a rule.
    static let attributeLimit = 32

    enum State: Equatable {
        case text
        /// Just after `<`.
        case tagOpen
        /// Just after `</`.
        case endTagOpen
        /// In a tag's name or between attributes; `afterEquals` once `=` was seen.
        case tag(afterEquals: Bool)
        case quotedValue(quote: UInt8)
        case unquotedValue
        /// After `<!`: a comment if `--` follows, else a declaration ending at `>`.
        case markupOpen(dashes: Int)
        /// In a comment; `dashes` counts the `-` just seen (for `-->`).
        case comment(dashes: Int)
        /// `<!DOCTYPE …>`, `<?…>`, `<!x…>`: up to the next `>`.
        case declaration
        /// Script or style text; `matched` bytes of `</name` seen so far.
        case rawText(matched: Int)
    }

    var state = State.text
    /// Bytes not yet passed on: since the last point where input can go.
    var pending: [UInt8] = []
    /// During `feed`: the chunk's bytes kept since the last gap (a drop) or
    /// the last copy, not yet copied into `pending`; they follow it.
    var runStart = 0
    var runEnd = 0
    /// Bytes kept of the current value, comment or raw text (for the limits).
    var kept = 0
    /// True once the current value, comment or raw text reached its limit.
    var dropping = false
    /// The start tag being read: its name so far, lowercased, and whether it is an end tag.
    var tagName = TagName()
    var tagNameDone = false
    /// Attributes begun in this tag, whether one's name is being read, and
    /// whether the rest of the tag is dropped (past `attributeLimit`).
    var attributeCount = 0
    var attributeNameOpen = false
    var droppingAttributes = false
    /// True once a `</head>`, `<body>` or `<frameset>` tag ended: the end of
    /// the head as written, which `PushParser` looks for here once libxml2
    /// no longer gets the input.
    var headEndSeen = false
    /// Whether tags are read in runs (`TagGate+Tags`); false only in tests,
    /// which compare that with the byte-by-byte steps.
    var readsTagsWhole = true
    /// Body text no element can capture is dropped (see `TagGate+BodyText`).
    var bodyText = BodyText()
    var isEndTag = false
    /// The element whose raw text is being read (`script` or `style`).
    var rawTextEndTag: [UInt8] = []
    /// How much of "json" the current script tag's values matched so far, and
    /// whether they contained it (only such a script's text is passed on).
    var jsonMatched = 0
    var tagMentionsJSON = false
    static let json = Array("json".utf8)

    static let scriptEnd = Array("</script".utf8)
    static let styleEnd = Array("</style".utf8)

    /// Bytes held back, waiting for the end of their construct.
    var heldCount: Int { pending.count }

    /// Passes on, through `emit`, what of `bytes` (and of what was held)
    /// can go, in order; holds back the rest.
    ///
    /// Input goes on at two kinds of points: where a construct ends (its
    /// `>`), and two bytes into a construct's start (`<m`, `</`, `<!`), which
    /// tells libxml2 that the text before it is complete. A text run or a
    /// construct is never handed over in pieces, so libxml2 never looks for
    /// the end of one again after a chunk boundary.
    ///
    /// Nothing is copied while it need not be: when nothing was held from
    /// before and nothing in the chunk is dropped, what goes on is the
    /// caller's own bytes, and only the tail after the last point is kept.
    /// Otherwise the kept bytes are copied once into the held buffer.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> Void) {
        runStart = 0
        runEnd = 0
        var emitEnd = 0
        var index = 0
        while index < bytes.count {
            // Runs that no byte of can change the state are kept (or dropped) whole.
            index = copyRun(bytes, from: index)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            index += 1
            let previous = state
            let keep = step(byte)
            if keep.byte { hold(bytes, index - 1..<index) }
            if keep.restore != .nothing {
                flushRun(bytes)
                pending.append(contentsOf: keep.restore == .commentEnd ? Self.commentEnd : rawTextEndTag)
            }
            let constructStarted = previous == .tagOpen && state != .text
            let constructEnded = previous != .text && previous != .tagOpen && state == .text
            if constructStarted || constructEnded { emitEnd = pending.count + runEnd - runStart }
            // A text run starts: counted against `textLimit` from here.
            if constructEnded { startLimited() }
        }
        if pending.isEmpty && runStart == 0 {
            // Nothing held from before and nothing dropped: the chunk's own bytes go on.
            if emitEnd > 0 { emit(UnsafeRawBufferPointer(rebasing: bytes[..<emitEnd])) }
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[emitEnd..<runEnd]))
            return
        }
        flushRun(bytes)
        guard emitEnd > 0 else { return }
        pending.withUnsafeBytes { emit(UnsafeRawBufferPointer(rebasing: $0[..<emitEnd])) }
        // What follows the last point is at most this chunk's tail, or a
        // construct held from before whose bytes all came after that point.
        pending.removeFirst(emitEnd)
    }

    /// Passes on whatever is held (the input ended inside a construct).
    mutating func finish(emit: (UnsafeRawBufferPointer) -> Void) {
        if !pending.isEmpty { pending.withUnsafeBytes(emit) }
        pending = []
        state = .text
    }
}
