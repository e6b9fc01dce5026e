import FoundationEssentials

/// Text clean-up shared by every text field: what a page writes is rarely what
/// a preview should show.
extension MetadataRules {
    /// Collapses runs of whitespace to one space and trims; decodes entities
    /// left over from double encoding. Returns nil for nothing-but-whitespace,
    /// so that an empty tag falls through to the next source.
    ///
    /// Reads at most `maximumTextBytes` of `raw`: no card shows more, and the
    /// word splitting below works on characters, about half a microsecond a
    /// byte — a 2 MiB title cost over a second before this cap.
    static func cleanText(_ raw: String?) -> String? {
        guard let raw = raw.map(prefixForRules) else { return nil }
        // The scanner already decoded entities once. Pages that escape twice
        // (`&amp;amp;`, `&amp;#39;`) leave a second layer that no reader wants
        // to see, so decode known entities once more.
        let decoded = raw.contains("&") ? decodeEntities(raw) : raw
        let words = decoded.split(whereSeparator: { $0.isWhitespace || $0 == "\u{200B}" })
        guard !words.isEmpty else { return nil }
        return words.joined(separator: " ")
    }

    /// The most of a text value the rules read.
    static let maximumTextBytes = 8 * 1024

    /// `text`, or its first `maximumTextBytes` cut at a character boundary.
    static func prefixForRules(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.count > maximumTextBytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: maximumTextBytes)
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
    static func decodeEntities(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            let afterAmp = rest.index(after: amp)
            let window = rest[afterAmp...].prefix(12)
            if let semi = window.firstIndex(of: ";"), let value = entityValue(rest[afterAmp..<semi]) {
                output += value
                rest = rest[rest.index(after: semi)...]
            } else {
                output += "&"
                rest = rest[afterAmp...]
            }
        }
        output += rest
        return output
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

    /// Parses a declared pixel dimension ("600", "600px", " 600 ") leniently.
    static func pixels(_ raw: String?) -> Int? {
        guard let raw else { return nil }
        let digits = raw.trimmedSpaces.prefix(while: \.isASCIIDigit)
        guard let value = Int(digits), value > 0 else { return nil }
        return value
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
