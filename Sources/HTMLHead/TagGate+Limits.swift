/// The limits and drops: values, comments and raw text past their limits are
/// cut at a character boundary, and a script's text is kept only when its
/// tag mentions JSON.
extension TagGate {
    mutating func startLimited() {
        kept = 0
        dropping = false
    }

    /// Keeps `byte` while under `limit`, and past it the rest of a UTF-8
    /// sequence already begun; drops everything after that.
    mutating func limited(_ byte: UInt8, limit: Int) -> Keep {
        if !dropping {
            if kept < limit || (byte & 0xC0 == 0x80) {
                kept += 1
                return Keep()
            }
            dropping = true
        }
        return Keep(byte: false)
    }

    /// A script start tag whose values have not yet mentioned JSON.
    var watchesForJSON: Bool { !isEndTag && !tagMentionsJSON && !droppingAttributes && tagName == .script }

    /// Advances the search for "json" (any case) through a script tag's values.
    mutating func matchJSON(_ byte: UInt8) {
        guard jsonMatched < Self.json.count else { return }
        let lowered = Self.lower(byte)
        if lowered == Self.json[jsonMatched] {
            jsonMatched += 1
            if jsonMatched == Self.json.count { tagMentionsJSON = true }
        } else {
            jsonMatched = lowered == Self.json[0] ? 1 : 0
        }
    }
}
