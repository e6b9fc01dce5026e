/// A link cut into what an engine matches on: an http(s) URL on the
/// default port, without user info, its host lowercased, its path in
/// segments as written (still percent-encoded) and its query's members.
/// Anything else is not a site link (`parse` answers nil).
public struct SiteURL: Sendable, Equatable {
    public var isHTTPS: Bool
    public var host: String
    public var segments: [String]
    public var query: [String: String]

    public static func parse(_ text: String) -> SiteURL? {
        let lower = text.lowercased()
        let isHTTPS: Bool
        if lower.hasPrefix("https://") { isHTTPS = true } else if lower.hasPrefix("http://") { isHTTPS = false } else {
            return nil
        }
        let rest = text.dropFirst(isHTTPS ? 8 : 7)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var host = rest[..<authorityEnd].lowercased()
        guard !host.contains("@"), !host.isEmpty else { return nil }
        if let colon = host.lastIndex(of: ":") {
            // The default port only: an API is never asked for a link to another one.
            guard host[host.index(after: colon)...] == (isHTTPS ? "443" : "80") else { return nil }
            host = String(host[..<colon])
        }
        if host.hasSuffix(".") { host.removeLast() }
        var tail = rest[authorityEnd...]
        if let hash = tail.firstIndex(of: "#") { tail = tail[..<hash] }
        let path = tail.prefix { $0 != "?" }
        var query: [String: String] = [:]
        if let mark = tail.firstIndex(of: "?") {
            for member in tail[tail.index(after: mark)...].split(separator: "&") {
                let pair = member.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[String(pair[0])] = pair.count > 1 ? String(pair[1]) : ""
            }
        }
        let segments = path.split(separator: "/").map(String.init)
        return SiteURL(isHTTPS: isHTTPS, host: host, segments: segments, query: query)
    }

    /// True when `segment` can go into an API's path as it is: unreserved
    /// characters, sub-delimiters, `:`, `@` and well-formed `%` escapes,
    /// and neither `.` nor `..` (so no request climbs out of the API's path).
    public static func isPathSafe(_ segment: String) -> Bool {
        guard !segment.isEmpty, segment != ".", segment != ".." else { return false }
        let bytes = Array(segment.utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
                continue
            }
            guard isAlphanumeric(byte) || Array("-._~!$&'()*+,;=:@".utf8).contains(byte) else { return false }
            index += 1
        }
        return true
    }

    /// True for a plain name: letters, digits, `-`, `_` and `.` (not `.` or `..` alone).
    public static func isName(_ text: String) -> Bool {
        !text.isEmpty && text != "." && text != ".."
            && text.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }

    /// True for a plain DNS name (letters, digits, `-` and dots between labels).
    public static func isHostName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 253 && !text.hasPrefix(".") && !text.hasSuffix(".") && !text.contains("..")
            && text.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    /// True for decimal digits only, at most 18 of them (so the number fits an `Int`).
    public static func isNumber(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 18 && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    static func isHex(_ byte: UInt8) -> Bool {
        isAlphanumeric(byte) && (byte <= UInt8(ascii: "9") || (byte | 0x20) <= UInt8(ascii: "f"))
    }
}
