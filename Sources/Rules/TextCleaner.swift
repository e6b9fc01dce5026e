/// Text clean-up shared by every text field, a leaf the rules, `PageIndex`
/// and `JSONLDGraph` all use: what a page writes is rarely what a preview
/// should show.
package enum TextCleaner {
    /// Collapses runs of whitespace to one space and trims; decodes entities
    /// left over from double encoding. Returns nil for nothing-but-whitespace,
    /// so that an empty tag falls through to the next source.
    ///
    /// Reads at most `maximumBytes` of `raw` (no card shows more), and
    /// works on UTF-8 bytes: splitting `Character`s cost about half a
    /// microsecond a byte (grapheme breaking), a 2 MiB title over a second.
    static func clean(_ raw: String?) -> String? {
        guard var text = raw.map(Self.prefix) else { return nil }
        // The scanner already decoded entities once. Pages that escape twice
        // (`&amp;amp;`, `&amp;#39;`) leave a second layer that no reader wants
        // to see, so decode known entities once more.
        if ASCIIText.holds(text, byte: UInt8(ascii: "&")) { text = decodeEntities(text) }
        return collapsingWhitespace(text)
    }

    /// `text` with every run of white space (Unicode's White_Space, and the
    /// zero-width space) made one space, trimmed; nil when nothing else is left.
    package static func collapsingWhitespace(_ text: String) -> String? {
        var text = text
        let output: [UInt8]? = text.withUTF8 { bytes in
            if isCollapsed(bytes) { return nil }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var spaceOwed = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    // ASCII, most of most texts: one byte, no scalar to decode.
                    if byte == 0x20 || (0x09...0x0D).contains(byte) {
                        spaceOwed = !output.isEmpty
                    } else {
                        if spaceOwed { output.append(UInt8(ascii: " ")) }
                        spaceOwed = false
                        output.append(byte)
                    }
                    index += 1
                    continue
                }
                let length = UTF8Length.ofScalar(startingWith: byte)
                let end = min(index + length, bytes.count)
                if isWhitespace(bytes[index..<end]) {
                    spaceOwed = !output.isEmpty
                } else {
                    if spaceOwed { output.append(UInt8(ascii: " ")) }
                    spaceOwed = false
                    if length == 1 { output.append(bytes[index]) } else { output.append(contentsOf: bytes[index..<end]) }
                }
                index = end
            }
            return output
        }
        guard let output else { return text }  // nothing to change: no copy
        return output.isEmpty ? nil : String(decoding: output, as: UTF8.self)
    }

    /// True when `bytes` are plain ASCII with single spaces between words
    /// and none at either end: what most values are, returned as they are.
    private static func isCollapsed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20 else { return false }
        var previousWasSpace = false
        for byte in bytes {
            if byte >= 0x80 || (0x09...0x0D).contains(byte) { return false }
            let isSpace = byte == 0x20
            if isSpace, previousWasSpace { return false }
            previousWasSpace = isSpace
        }
        return true
    }

    /// Whether the UTF-8 of one scalar is white space (or U+200B).
    private static func isWhitespace(_ scalar: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = scalar.first else { return false }
        if first < 0x80 { return first == 0x20 || (0x09...0x0D).contains(first) }
        var decoder = UTF8()
        var iterator = scalar.makeIterator()
        guard case .scalarValue(let value) = decoder.decode(&iterator) else { return false }
        return value.properties.isWhitespace || value == "\u{200B}"
    }

    /// The most of a text value the rules read.
    package static let maximumBytes = 8 * 1024

    /// `text`, or its first `maximumBytes` cut at a character boundary.
    package static func prefix(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.count > maximumBytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: maximumBytes)
        // Back off to the start of a scalar (continuation bytes are 10xxxxxx).
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }

    /// Named entities that show up escaped twice in real pages. A full HTML
    /// entity table is the scanner's business; this only repairs leftovers.
    private static let namedEntities: [Substring: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}",
        "hellip": "\u{2026}", "mdash": "\u{2014}", "ndash": "\u{2013}",
        "lsquo": "\u{2018}", "rsquo": "\u{2019}", "ldquo": "\u{201C}", "rdquo": "\u{201D}",
        "laquo": "\u{00AB}", "raquo": "\u{00BB}", "copy": "\u{00A9}", "reg": "\u{00AE}",
        "trade": "\u{2122}", "middot": "\u{00B7}", "bull": "\u{2022}", "eacute": "\u{00E9}",
    ]

    /// Decodes `&name;`, `&#NN;` and `&#xHH;` where `name` is known; leaves
    /// anything else (a bare `&`, an unknown name) as written.
    package static func decodeEntities(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "&") {
                    // A name or number of at most 12 ASCII bytes, then `;`.
                    let limit = min(bytes.count, index + 13)
                    var semicolon = index + 1
                    while semicolon < limit, bytes[semicolon] != UInt8(ascii: ";"), bytes[semicolon] < 0x80 { semicolon += 1 }
                    if semicolon < limit, bytes[semicolon] == UInt8(ascii: ";"),
                       let value = entityValue(Substring(String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self)))
                    {
                        output.append(contentsOf: value.utf8)
                        index = semicolon + 1
                        continue
                    }
                }
                output.append(bytes[index])
                index += 1
            }
            return String(decoding: output, as: UTF8.self)
        }
    }

    private static func entityValue(_ name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let code: UInt32?
            if digits.first == "x" || digits.first == "X" {
                code = UInt32(digits.dropFirst(), radix: 16)
            } else {
                code = UInt32(digits, radix: 10)
            }
            guard let code, code != 0, let scalar = Unicode.Scalar(code) else { return nil }
            return String(Character(scalar))
        }
        return namedEntities[name]
    }
}

/// How many bytes the UTF-8 of a scalar takes, from its first byte.
enum UTF8Length {
    static func ofScalar(startingWith byte: UInt8) -> Int {
        switch byte {
        case ..<0xC0: 1  // ASCII (and a stray continuation byte, taken alone)
        case ..<0xE0: 2
        case ..<0xF0: 3
        default: 4
        }
    }
}
