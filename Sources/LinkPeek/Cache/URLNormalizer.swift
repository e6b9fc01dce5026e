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
