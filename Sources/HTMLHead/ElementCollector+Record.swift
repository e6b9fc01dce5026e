import TextTrimming

/// Which elements to record, and turning captured bytes into text.
extension ElementCollector {
    /// What makes a `<meta>` say something: HTML gives it meaning through
    /// exactly one of `name`, `http-equiv`, `charset` and `itemprop`, and
    /// RDFa (Open Graph) through `property`. A meta with none of them (only
    /// `content`, or attributes of no standard) is metadata about nothing,
    /// and is not recorded: a hostile head of such tags costs no copies.
    static let metaKeyAttributes: [StaticString] = ["name", "property", "http-equiv", "charset", "itemprop"]

    /// True when the element's `type` is `application/ld+json` (see the
    /// other `isJSONLD`); no `String` unless the value is about that long.
    static func isJSONLD(_ attributes: AttributeList) -> Bool {
        attributes.withValue(of: "type") { value in
            // The essence alone is 19 bytes; spaces and parameters only add.
            var length = 0
            while length < 19, value[length] != 0 { length += 1 }
            guard length == 19 else { return false }
            return isJSONLD(String(cString: value))
        } ?? false
    }

    /// True for `application/ld+json`, ignoring case, whitespace and parameters.
    static func isJSONLD(_ type: String?) -> Bool {
        guard let type else { return false }
        let essence = type.split(separator: ";", maxSplits: 1).first.map { $0.trimmedASCIIWhitespace } ?? ""
        return essence.lowercased() == "application/ld+json"
    }

    /// The text a capture stands for: as written for titles and JSON-LD,
    /// trimmed for `itemprop` elements and body fallbacks; never a cut-off
    /// UTF-8 sequence.
    static func text(of capture: Capture) -> String {
        let whole = capture.bytes.count >= capture.limit ? droppingCutCharacter(capture.bytes[...]) : capture.bytes[...]
        guard capture.isTrimmed else { return String(decoding: whole, as: UTF8.self) }
        // ASCII white space comes off on the bytes; only a non-ASCII edge
        // (a no-break space, a combining mark after a space) needs the walk
        // over Characters, on the whole text.
        var bytes = whole
        while let first = bytes.first, WhiteSpaceByte.isWhitespace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, WhiteSpaceByte.isWhitespace(last) { bytes = bytes.dropLast() }
        guard let first = bytes.first, let last = bytes.last else { return "" }
        if first < 0x80 && last < 0x80 { return String(decoding: bytes, as: UTF8.self) }
        let text = String(decoding: whole, as: UTF8.self)
        guard let start = text.firstIndex(where: { !$0.isWhitespace }),
              let end = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(text[start...end])
    }

    /// `bytes` without a last character that the cap cut short.
    static func droppingCutCharacter(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard var lead = bytes.indices.last else { return bytes }
        while lead > bytes.startIndex, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
        let byte = bytes[lead]
        let needed = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        return lead + needed > bytes.endIndex ? bytes[..<lead] : bytes
    }
}
