import TextTrimming

/// One normalisation of http(s) URLs for cache keys (RFC 3986 §6.2.2 plus
/// what browsers do): scheme and host lower-cased, IDN hosts as punycode,
/// the default port dropped, an empty path as `/`, the fragment dropped,
/// percent-encoding normalised (hex upper-cased, unreserved characters
/// decoded, bytes that may not appear raw encoded). Dot segments, query
/// order and trailing slashes are left alone: servers may tell them apart.
public enum URLNormalizer {
    /// The normalised URL, or nil when `raw` is not an absolute http or https URL.
    public static func normalize(_ raw: String) -> String? {
        // A URL already in its normal form (a client sends the same one again and again) is its own.
        isNormal(raw.utf8) ? raw : normalizeFully(raw)
    }

    /// `normalize` without the check for a URL already normal.
    static func normalizeFully(_ raw: String) -> String? {
        let trimmed = raw.trimmedWhitespace
        guard let colon = trimmed.firstIndex(of: ":") else { return nil }
        let scheme = trimmed[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var rest = trimmed[trimmed.index(after: colon)...]
        guard rest.hasPrefix("//") else { return nil }
        rest = rest.dropFirst(2)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        guard let authority = normalizeAuthority(rest[..<authorityEnd], scheme: scheme) else { return nil }
        var pathAndQuery = rest[authorityEnd...]
        var query: Substring?
        if let mark = pathAndQuery.firstIndex(of: "?") {
            query = pathAndQuery[pathAndQuery.index(after: mark)...]
            pathAndQuery = pathAndQuery[..<mark]
        }
        let path = pathAndQuery.isEmpty ? "/" : normalizePercentEncoding(pathAndQuery)
        return scheme + "://" + authority + path + (query.map { "?" + normalizePercentEncoding($0) } ?? "")
    }

    /// Whether `normalize` would answer `url` unchanged, read in one pass
    /// over its bytes; false for whatever it is not sure of (the full
    /// normalisation then runs). True for: printable ASCII only (nothing to
    /// trim or encode), `http://` or `https://`, a host of lower-case
    /// letters, digits, `-`, `.` and `_` (no user info, no IPv6 literal),
    /// a port only when it is not the scheme's default and has no leading
    /// zero, a path that starts with `/`, no fragment, and every byte of
    /// the path and query allowed raw or in an escape `%XX` with upper-case
    /// hex of a byte that stays encoded.
    static func isNormal(_ url: String.UTF8View) -> Bool {
        var bytes = url.makeIterator()
        var schemeEnd = 0
        for expected in "https://".utf8 {
            guard let byte = bytes.next() else { return false }
            if schemeEnd == 4, byte == UInt8(ascii: ":") {
                // "http:" then "//".
                guard bytes.next() == UInt8(ascii: "/"), bytes.next() == UInt8(ascii: "/") else { return false }
                schemeEnd = 7
                break
            }
            guard byte == expected else { return false }
            schemeEnd += 1
        }
        let https = schemeEnd == 8
        // The host, then an optional port.
        var hostLength = 0
        var port: [UInt8] = []
        var inPort = false
        var next = bytes.next()
        while let byte = next, byte != UInt8(ascii: "/") {
            if inPort {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), port.count < 6 else { return false }
                port.append(byte)
            } else if byte == UInt8(ascii: ":") {
                inPort = true
            } else {
                guard isLowerHostByte(byte) else { return false }
                hostLength += 1
            }
            next = bytes.next()
        }
        // No path (or a query right after the authority) becomes "/".
        guard next == UInt8(ascii: "/"), hostLength > 0 else { return false }
        if inPort {
            guard let first = port.first, first != UInt8(ascii: "0"),
                !port.elementsEqual((https ? "443" : "80").utf8)
            else { return false }
        }
        // The path and query: `%` must start `%XX` (upper-case hex, not an unreserved byte).
        var escape: (count: Int, value: UInt8) = (0, 0)
        while let byte = bytes.next() {
            if escape.count > 0 {
                guard let digit = upperHexValue(byte) else { return false }
                escape.value = escape.value << 4 | digit
                escape.count += 1
                if escape.count == 3 {
                    guard !isUnreserved(escape.value) else { return false }
                    escape = (0, 0)
                }
                continue
            }
            guard byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "#") else { return false }
            if byte == UInt8(ascii: "%") {
                escape = (1, 0)
            } else {
                guard isAllowedRaw(byte) else { return false }
            }
        }
        return escape.count == 0
    }

    private static func isLowerHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
        }
    }

    private static func upperHexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func normalizeAuthority(_ authority: Substring, scheme: String) -> String? {
        var hostPort = authority
        var userinfo = ""
        if let at = authority.lastIndex(of: "@") {
            userinfo = normalizePercentEncoding(authority[..<at]) + "@"
            hostPort = authority[authority.index(after: at)...]
        }
        var host = hostPort
        var port: Substring = ""
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return nil }
            host = hostPort[...close]
            port = hostPort[hostPort.index(after: close)...]
            if !port.isEmpty {
                guard port.hasPrefix(":") else { return nil }
                port = port.dropFirst()
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            port = hostPort[hostPort.index(after: colon)...]
        }
        guard !host.isEmpty, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber) else { return nil }
        guard let asciiHost = Punycode.asciiHost(String(host)) else { return nil }
        let digits = port.drop { $0 == "0" }
        let defaultPort = scheme == "https" ? "443" : "80"
        let portText = port.isEmpty || digits == defaultPort ? "" : ":" + (digits.isEmpty ? "0" : String(digits))
        return userinfo + asciiHost + portText
    }

    /// Percent-encoding as RFC 3986 §6.2.2.2 normalises it: `%xx` upper-cased,
    /// unreserved characters decoded, other bytes outside the URL character
    /// set (spaces, controls, non-ASCII as UTF-8) encoded.
    static func normalizePercentEncoding(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = ASCIIByte.hexValue(bytes[index + 1]), let low = ASCIIByte.hexValue(bytes[index + 2])
            {
                let decoded = high << 4 | low
                if isUnreserved(decoded) {
                    out.append(decoded)
                } else {
                    out.append(contentsOf: [UInt8(ascii: "%"), hexDigit(decoded >> 4), hexDigit(decoded & 0xF)])
                }
                index += 3
                continue
            }
            if isAllowedRaw(byte) {
                out.append(byte)
            } else {
                out.append(contentsOf: [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0xF)])
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "~")
        }
    }

    /// Unreserved and reserved characters (RFC 3986 §2), and a `%` that
    /// does not start an escape is encoded.
    private static func isAllowedRaw(_ byte: UInt8) -> Bool {
        if isUnreserved(byte) { return true }
        return "!$&'()*+,;=:@/?[]".utf8.contains(byte)
    }
}
