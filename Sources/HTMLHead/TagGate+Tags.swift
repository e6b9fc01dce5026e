/// Inside a tag: its name, attribute names, `=`, spaces and unquoted values
/// read in one loop, instead of one state step per byte.
///
/// Why: a tag of many short attributes (`<meta a0=1 a1=1 …>`) is almost all
/// such bytes, and each went through `feed`'s step (the state enum, the
/// construct checks, the run bookkeeping). Here the state lives in locals and
/// the kept bytes go into the held run once per stretch. What the loop does
/// to the gate's state is exactly what the steps of `stepInTag` and the
/// `unquotedValue` case of `advance` do (`TagGateRunsTests` compares the two
/// on random input); it stops, for the one step to handle, at what changes
/// more: the tag's `>`, a quote starting a value, a script tag that is being
/// watched for JSON, and an attribute past `attributeLimit` in a kept tag.
extension TagGate {
    /// Reads the tag from `start` (in state `.tag` or `.unquotedValue`); returns
    /// where a step must take over (`start` when at once).
    mutating func readTag(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        if !tagNameDone {
            while index < bytes.count, !Self.endsTagName(bytes[index]) {
                tagName.append(Self.lower(bytes[index]))
                index += 1
            }
            if index == bytes.count {
                hold(bytes, start..<index)
                return index
            }
            tagNameDone = true
        }
        // A script tag's values are matched against "json" one byte at a time.
        if !droppingAttributes, watchesForJSON {
            hold(bytes, start..<index)
            return index
        }
        let keeping = !droppingAttributes
        var inValue = false
        var afterEquals = false
        switch state {
        case .unquotedValue: inValue = true
        case .tag(let equals): afterEquals = equals
        default: return index
        }
        // Kept bytes since the last drop (a value past its limit).
        var runFrom = start
        scan: while index < bytes.count {
            let byte = bytes[index]
            if inValue {
                // An unquoted value ends at a space or the tag's `>`; neither is above `>`.
                if byte > UInt8(ascii: ">") || !(ByteCursor.isSpace(byte) || byte == UInt8(ascii: ">")) {
                    if !dropping, kept < Self.valueLimit || byte & 0xC0 == 0x80 {
                        kept += 1
                    } else {
                        if !dropping, keeping { hold(bytes, runFrom..<index) }
                        dropping = true
                        runFrom = index + 1
                    }
                    index += 1
                    continue
                }
                if byte == UInt8(ascii: ">") { break scan }
                inValue = false
                afterEquals = false
                jsonMatched = 0
                if dropping, keeping { runFrom = index }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: ">"):
                break scan
            case UInt8(ascii: "="):
                attributeNameOpen = false
                afterEquals = true
            case UInt8(ascii: "\"") where afterEquals, UInt8(ascii: "'") where afterEquals:
                break scan
            case _ where ByteCursor.isSpace(byte) || byte == UInt8(ascii: "/"):
                attributeNameOpen = false
            default:
                if afterEquals {
                    startLimited()
                    kept = 1
                    inValue = true
                } else if !attributeNameOpen {
                    // A new attribute: past the limit a kept tag starts dropping, in a step.
                    if keeping, attributeCount >= Self.attributeLimit { break scan }
                    attributeNameOpen = true
                    attributeCount += 1
                }
            }
            index += 1
        }
        state = inValue ? .unquotedValue : .tag(afterEquals: afterEquals)
        if keeping, !(inValue && dropping) { hold(bytes, runFrom..<index) }
        return index
    }

    private static func endsTagName(_ byte: UInt8) -> Bool {
        ByteCursor.isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">")
    }
}
