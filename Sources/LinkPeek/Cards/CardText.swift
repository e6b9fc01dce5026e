import TextTrimming

/// Text helpers shared by the card renderers: cleaning page text, cutting
/// it at a word boundary, reading a URL's host, and deciding which URLs may
/// be linked at all.
enum CardText {
    /// `text` with control characters (C0, C1, DEL, bidi overrides) and runs
    /// of white space (newlines included) made single spaces, trimmed; nil
    /// when nothing is left. Page text never carries a line break or a
    /// terminal escape into a card.
    static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isSpaceLike(scalar) {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            out.append(scalar)
        }
        return out.isEmpty ? nil : String(out)
    }

    private static func isSpaceLike(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x20, 0x7F...0xA0: true
        case 0x2028, 0x2029, 0x200B, 0xFEFF: true
        // Bidi embeddings, overrides and isolates could reorder what follows.
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: scalar.properties.isWhitespace
        }
    }

    /// `text` cut to at most `limit` characters, at the last space before
    /// the limit when there is one in its second half, with "…".
    static func trimmed(_ text: String, limit: Int) -> String {
        guard text.count > limit else { return text }
        var cut = text.prefix(limit)
        if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) > limit / 2 {
            cut = cut[..<space]
        }
        while let last = cut.last, last == " " || last == "," || last == ";" || last == ":" { cut = cut.dropLast() }
        return cut + "…"
    }

    /// `url` when it is an http or https URL without white space or control
    /// characters, else nil: the only URLs a card links to or embeds.
    /// Credentials are dropped (`withoutUserinfo`).
    static func safeURL(_ url: String?) -> String? {
        guard let url, host(of: url) != nil else { return nil }
        for byte in url.utf8 where byte <= 0x20 || byte == 0x7F { return nil }
        return withoutUserinfo(url)
    }

    /// `url` without the `user:password@` of its authority (any scheme with
    /// `//`), which no card shows: `https://me:pw@host/p` → `https://host/p`.
    /// Other URLs are returned as they are.
    static func withoutUserinfo(_ url: String) -> String {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[(colon + 1)...].starts(with: "//".utf8)
        else { return url }
        let start = colon + 3
        var end = start
        var at: Int?
        while end < bytes.count, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(bytes[end]) {
            if bytes[end] == UInt8(ascii: "@") { at = end }
            end += 1
        }
        guard let at else { return url }
        return String(decoding: bytes[..<start] + bytes[(at + 1)...], as: UTF8.self)
    }

    /// The host of an http(s) URL as every card shows it: lowercased ASCII,
    /// kept as written otherwise (IDN hosts stay readable), with the port
    /// when it is not the scheme's default (`example.com:8080`, never
    /// `example.com:443` for https); nil for other schemes.
    static func host(of url: String) -> String? {
        let bytes = Array(url.utf8)
        let prefixes: [(prefix: [UInt8], defaultPort: Int)] = [(Array("https://".utf8), 443), (Array("http://".utf8), 80)]
        guard let (prefix, defaultPort) = prefixes.first(where: { hasPrefixIgnoringCase(bytes, $0.prefix) }) else { return nil }
        var start = prefix.count
        var end = start
        while end < bytes.count, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(bytes[end]) {
            if bytes[end] == UInt8(ascii: "@") { start = end + 1 }
            end += 1
        }
        var authority = Array(bytes[start..<end])
        // The port, apart (not the colons of an IPv6 literal).
        var port: Int?
        if let colon = authority.lastIndex(of: UInt8(ascii: ":")), !authority[colon...].contains(UInt8(ascii: "]")) {
            port = Self.port(authority[(colon + 1)...])
            authority = Array(authority[..<colon])
        }
        guard !authority.isEmpty else { return nil }
        let lowered = String(decoding: authority.map(ASCIIByte.lowercased), as: UTF8.self)
        guard let port, port != defaultPort else { return lowered }
        return "\(lowered):\(port)"
    }

    /// A port written as 1–5 digits (leading zeros allowed), 1–65535; nil
    /// for an empty or malformed one, which no card shows.
    private static func port(_ digits: ArraySlice<UInt8>) -> Int? {
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        guard !digits.isEmpty, significant.count <= 5,
            digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else { return nil }
        let value = significant.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return (1...65535).contains(value) ? value : nil
    }

    private static func hasPrefixIgnoringCase(_ bytes: [UInt8], _ prefix: [UInt8]) -> Bool {
        ASCIIByte.matches(prefix, in: bytes, at: 0)
    }
}
