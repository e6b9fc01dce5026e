#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    private enum State: Equatable {
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

    private var state = State.text
    /// Bytes not yet passed on: since the last point where input can go.
    private var pending: [UInt8] = []
    /// During `feed`: the chunk's bytes kept since the last gap (a drop) or
    /// the last copy, not yet copied into `pending`; they follow it.
    private var runStart = 0
    private var runEnd = 0
    /// Bytes kept of the current value, comment or raw text (for the limits).
    private var kept = 0
    /// True once the current value, comment or raw text reached its limit.
    private var dropping = false
    /// The start tag being read: its name so far, lowercased, and whether it is an end tag.
    private var tagName = TagName()
    private var tagNameDone = false
    /// Attributes begun in this tag, whether one's name is being read, and
    /// whether the rest of the tag is dropped (past `attributeLimit`).
    private var attributeCount = 0
    private var attributeNameOpen = false
    private var droppingAttributes = false
    /// False once nothing more can be recorded (`ElementCollector.isFull`):
    /// from then on tags go on without their attributes, since only the
    /// elements' names still matter (where the head ends), and libxml2 need
    /// not parse, decode and copy attributes no one reads (100,000 metas).
    var keepsAttributes = true
    /// Body text no element can capture is dropped (see `TagGate+BodyText`).
    var bodyText = BodyText()
    private var isEndTag = false
    /// The element whose raw text is being read (`script` or `style`).
    private var rawTextEndTag: [UInt8] = []
    /// How much of "json" the current script tag's values matched so far, and
    /// whether they contained it (only such a script's text is passed on).
    private var jsonMatched = 0
    private var tagMentionsJSON = false
    private static let json = Array("json".utf8)

    private static let scriptEnd = Array("</script".utf8)
    private static let styleEnd = Array("</style".utf8)

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

    /// Keeps `bytes[range]` after what is held: it extends the run, or, after
    /// a gap, the run is copied and a new one starts.
    private mutating func hold(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        if range.lowerBound != runEnd {
            flushRun(bytes)
            runStart = range.lowerBound
        }
        runEnd = range.upperBound
    }

    /// Copies the run into `pending` (one copy, whatever its length).
    private mutating func flushRun(_ bytes: UnsafeRawBufferPointer) {
        if runEnd > runStart { pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<runEnd])) }
        runStart = runEnd
    }

    /// Keeps the bytes from `start` that cannot change the state (text up
    /// to a `<`, a quoted value up to its quote, script text up to a `<`),
    /// within the current limit, or drops such a run past a limit; returns
    /// where the run stopped.
    private mutating func copyRun(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        if droppingAttributes {
            switch state {
            case .quotedValue(let quote):
                return skip(bytes, from: start, upTo: quote)
            case .tag(afterEquals: false) where tagNameDone:
                // Names and spaces of dropped attributes: only `=` and `>` change anything.
                var index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ">") {
                    index += 1
                }
                return index
            default:
                return start
            }
        }
        if case .tag(afterEquals: false) = state, tagNameDone, attributeNameOpen {
            // The rest of an attribute's name: up to a space, `=`, `/`, `>` or a quote.
            var index = start
            while index < bytes.count, !Self.endsAttributeName(bytes[index]) { index += 1 }
            hold(bytes, start..<index)
            return index
        }
        let stop: UInt8
        var end = bytes.count
        switch state {
        case .quotedValue(let quote) where dropping:
            return skip(bytes, from: start, upTo: quote)
        case .rawText(matched: 0) where dropping:
            return skip(bytes, from: start, upTo: UInt8(ascii: "<"))
        case .comment(dashes: 0) where dropping:
            return skip(bytes, from: start, upTo: UInt8(ascii: "-"))
        case .text where dropping || bodyText.drops:
            return skip(bytes, from: start, upTo: UInt8(ascii: "<"))
        case .text:
            stop = UInt8(ascii: "<")
            end = min(end, start + max(0, Self.textLimit - kept))
        case .quotedValue(let quote) where !dropping:
            stop = quote
            end = min(end, start + max(0, Self.valueLimit - kept))
        case .rawText(matched: 0) where !dropping:
            stop = UInt8(ascii: "<")
            end = min(end, start + max(0, Self.rawTextLimit - kept))
        default:
            return start
        }
        let index = Self.find(stop, in: bytes, from: start, to: end)
        guard index > start else { return start }
        hold(bytes, start..<index)
        kept += index - start
        if case .quotedValue = state, watchesForJSON {
            for position in start..<index where !tagMentionsJSON { matchJSON(bytes[position]) }
        }
        return index
    }

    /// Drops the bytes from `start` up to the next `stop` (or the end), none
    /// of which changes the state; returns where that is.
    private func skip(_ bytes: UnsafeRawBufferPointer, from start: Int, upTo stop: UInt8) -> Int {
        Self.find(stop, in: bytes, from: start, to: bytes.count)
    }

    /// The position of the first `stop` in `bytes[start..<end]`, or `end` (memchr: vectorised).
    private static func find(_ stop: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        guard start < end, let base = bytes.baseAddress else { return start }
        guard let found = memchr(base + start, Int32(stop), end - start) else { return end }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// A script start tag whose values have not yet mentioned JSON.
    private var watchesForJSON: Bool { !isEndTag && !tagMentionsJSON && !droppingAttributes && tagName == .script }

    /// Advances the search for "json" (any case) through a script tag's values.
    private mutating func matchJSON(_ byte: UInt8) {
        guard jsonMatched < Self.json.count else { return }
        let lowered = Self.lower(byte)
        if lowered == Self.json[jsonMatched] {
            jsonMatched += 1
            if jsonMatched == Self.json.count { tagMentionsJSON = true }
        } else {
            jsonMatched = lowered == Self.json[0] ? 1 : 0
        }
    }

    /// Passes on whatever is held (the input ended inside a construct).
    mutating func finish(emit: (UnsafeRawBufferPointer) -> Void) {
        if !pending.isEmpty { pending.withUnsafeBytes(emit) }
        pending = []
        state = .text
    }

    /// What to hold of one byte: whether to keep it, and bytes to put back
    /// that a limit had dropped (the start of an end tag).
    /// Bytes a limit dropped that must go on after all (a plain value, so
    /// that the `Keep` of every byte costs no reference counting).
    private enum Restore {
        case nothing
        /// `-->`
        case commentEnd
        /// `</script` or `</style` (`rawTextEndTag`).
        case rawTextEndTag
    }

    private static let commentEnd = Array("-->".utf8)

    private struct Keep {
        var byte = true
        var restore = Restore.nothing
    }

    /// Advances the state by one byte.
    private mutating func step(_ byte: UInt8) -> Keep {
        guard droppingAttributes else { return advance(byte) }
        _ = advance(byte)
        switch state {
        case .tag, .quotedValue, .unquotedValue:
            return Keep(byte: false)
        default:
            // The tag's `>`.
            droppingAttributes = false
            return Keep()
        }
    }

    private mutating func advance(_ byte: UInt8) -> Keep {
        switch state {
        case .text:
            if byte == UInt8(ascii: "<") {
                // Kept even past the limit: it may start a tag.
                state = .tagOpen
                return Keep()
            }
            return limited(byte, limit: Self.textLimit)
        case .tagOpen:
            switch byte {
            case UInt8(ascii: "!"): state = .markupOpen(dashes: 0)
            case UInt8(ascii: "/"): state = .endTagOpen
            case UInt8(ascii: "?"): state = .declaration
            case _ where Self.isLetter(byte): beginTag(byte, end: false)
            default: state = .text  // A `<` that starts no tag is text.
            }
            return Keep()
        case .endTagOpen:
            if Self.isLetter(byte) {
                beginTag(byte, end: true)
            } else {
                state = byte == UInt8(ascii: ">") ? .text : .declaration
            }
            return Keep()
        case .tag(let afterEquals):
            return stepInTag(byte, afterEquals: afterEquals)
        case .quotedValue(let quote):
            if byte == quote {
                state = .tag(afterEquals: false)
                jsonMatched = 0
                return Keep()
            }
            if watchesForJSON { matchJSON(byte) }
            return limited(byte, limit: Self.valueLimit)
        case .unquotedValue:
            if ByteCursor.isSpace(byte) {
                state = .tag(afterEquals: false)
                jsonMatched = 0
                return Keep()
            }
            if byte == UInt8(ascii: ">") { return endTag() }
            if watchesForJSON { matchJSON(byte) }
            return limited(byte, limit: Self.valueLimit)
        case .markupOpen(let dashes):
            if byte == UInt8(ascii: "-") {
                if dashes == 1 {
                    startLimited()
                    state = .comment(dashes: 0)
                } else {
                    state = .markupOpen(dashes: 1)
                }
            } else {
                state = byte == UInt8(ascii: ">") ? .text : .declaration
            }
            return Keep()
        case .comment(let dashes):
            return stepInComment(byte, dashes: dashes)
        case .declaration:
            if byte == UInt8(ascii: ">") { state = .text }
            return Keep()
        case .rawText(let matched):
            return stepInRawText(byte, matched: matched)
        }
    }

    private mutating func beginTag(_ first: UInt8, end: Bool) {
        tagName = TagName(first: Self.lower(first))
        tagNameDone = false
        attributeCount = 0
        attributeNameOpen = false
        droppingAttributes = false
        isEndTag = end
        jsonMatched = 0
        tagMentionsJSON = false
        state = .tag(afterEquals: false)
    }

    private mutating func stepInTag(_ byte: UInt8, afterEquals: Bool) -> Keep {
        if !tagNameDone {
            if ByteCursor.isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") {
                tagNameDone = true
            } else {
                tagName.append(Self.lower(byte))
                return Keep()
            }
        }
        switch byte {
        case UInt8(ascii: ">"):
            return endTag()
        case UInt8(ascii: "="):
            attributeNameOpen = false
            state = .tag(afterEquals: true)
        case UInt8(ascii: "\"") where afterEquals, UInt8(ascii: "'") where afterEquals:
            attributeNameOpen = false
            startLimited()
            state = .quotedValue(quote: byte)
        case _ where ByteCursor.isSpace(byte) || byte == UInt8(ascii: "/"):
            attributeNameOpen = false
        default:
            if afterEquals {
                startLimited()
                state = .unquotedValue
                if watchesForJSON { matchJSON(byte) }
                return limited(byte, limit: Self.valueLimit)
            }
            if !attributeNameOpen {
                attributeNameOpen = true
                attributeCount += 1
                if attributeCount > Self.attributeLimit || !keepsAttributes {
                    droppingAttributes = true
                    return Keep(byte: false)
                }
            }
        }
        return Keep()
    }

    /// The tag's `>`: back to text, or into a script's or style's raw text,
    /// which is dropped from the start unless it is a script that may be JSON-LD.
    private mutating func endTag() -> Keep {
        bodyText.tagEnded(tagName, isEndTag: isEndTag, hasAttributes: attributeCount > 0)
        if !isEndTag, tagName == .script || tagName == .style {
            rawTextEndTag = tagName == .script ? Self.scriptEnd : Self.styleEnd
            startLimited()
            dropping = !(tagName == .script && tagMentionsJSON)
            state = .rawText(matched: 0)
        } else {
            state = .text
        }
        return Keep()
    }

    private mutating func stepInComment(_ byte: UInt8, dashes: Int) -> Keep {
        if byte == UInt8(ascii: ">"), dashes >= 2 {
            state = .text
            // The `--` before it may have been dropped with the rest of a long comment.
            return dropping ? Keep(byte: false, restore: .commentEnd) : Keep()
        }
        state = .comment(dashes: byte == UInt8(ascii: "-") ? dashes + 1 : 0)
        return limited(byte, limit: Self.commentLimit)
    }

    private mutating func stepInRawText(_ byte: UInt8, matched: Int) -> Keep {
        let lowered = Self.lower(byte)
        if lowered == rawTextEndTag[matched] {
            let now = matched + 1
            if now == rawTextEndTag.count {
                // `</script` or `</style`: the end tag, read as a tag from here on.
                let wasDropping = dropping
                beginTag(rawTextEndTag[2], end: true)
                tagName = rawTextEndTag == Self.scriptEnd ? .script : .style
                return wasDropping ? Keep(byte: false, restore: .rawTextEndTag) : Keep()
            }
            state = .rawText(matched: now)
        } else {
            state = .rawText(matched: byte == UInt8(ascii: "<") ? 1 : 0)
        }
        return limited(byte, limit: Self.rawTextLimit)
    }

    private mutating func startLimited() {
        kept = 0
        dropping = false
    }

    /// Keeps `byte` while under `limit`, and past it the rest of a UTF-8
    /// sequence already begun; drops everything after that.
    private mutating func limited(_ byte: UInt8, limit: Int) -> Keep {
        if !dropping {
            if kept < limit || (byte & 0xC0 == 0x80) {
                kept += 1
                return Keep()
            }
            dropping = true
        }
        return Keep(byte: false)
    }

    private static func endsAttributeName(_ byte: UInt8) -> Bool {
        ByteCursor.isSpace(byte) || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
