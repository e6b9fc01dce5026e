import TextTrimming

/// The state machine: one byte at a time through tags, values, comments,
/// declarations and raw text, saying what of each byte is kept.
extension TagGate {
    /// Bytes a limit dropped that must go on after all (a plain value, so
    /// that the `Keep` of every byte costs no reference counting).
    enum Restore {
        case nothing
        /// `-->`
        case commentEnd
        /// `</script` or `</style` (`rawTextEndTag`).
        case rawTextEndTag
    }

    static let commentEnd = Array("-->".utf8)

    static let head = TagName("head")
    static let body = TagName("body")
    static let frameset = TagName("frameset")

    /// What to hold of one byte: whether to keep it, and bytes to put back
    /// that a limit had dropped (the start of an end tag).
    struct Keep {
        var byte = true
        var restore = Restore.nothing
    }

    /// Advances the state by one byte.
    mutating func step(_ byte: UInt8) -> Keep {
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

    mutating func advance(_ byte: UInt8) -> Keep {
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

    mutating func beginTag(_ first: UInt8, end: Bool) {
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

    mutating func stepInTag(_ byte: UInt8, afterEquals: Bool) -> Keep {
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
                if attributeCount > Self.attributeLimit {
                    droppingAttributes = true
                    return Keep(byte: false)
                }
            }
        }
        return Keep()
    }

    /// The tag's `>`: back to text, or into a script's or style's raw text,
    /// which is dropped from the start unless it is a script that may be JSON-LD.
    mutating func endTag() -> Keep {
        bodyText.tagEnded(tagName, isEndTag: isEndTag, hasAttributes: attributeCount > 0)
        if isEndTag ? tagName == Self.head : (tagName == Self.body || tagName == Self.frameset) { headEndSeen = true }
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

    mutating func stepInComment(_ byte: UInt8, dashes: Int) -> Keep {
        if byte == UInt8(ascii: ">"), dashes >= 2 {
            state = .text
            // The `--` before it may have been dropped with the rest of a long comment.
            return dropping ? Keep(byte: false, restore: .commentEnd) : Keep()
        }
        state = .comment(dashes: byte == UInt8(ascii: "-") ? dashes + 1 : 0)
        return limited(byte, limit: Self.commentLimit)
    }

    mutating func stepInRawText(_ byte: UInt8, matched: Int) -> Keep {
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

    static func endsAttributeName(_ byte: UInt8) -> Bool {
        ByteCursor.isSpace(byte) || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        ASCIIByte.isLetter(byte)
    }

    static func lower(_ byte: UInt8) -> UInt8 {
        ASCIIByte.lowercased(byte)
    }
}
