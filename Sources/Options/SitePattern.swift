/// A host pattern of a `[[site]]` rule or `hover.allow`/`hover.deny`:
/// `example.com` (that host), `*.example.com` (its subdomains, not itself),
/// either with a path prefix (`example.com/docs`), and for a rule that
/// sends credentials, `https://` in front (https URLs only).
public struct SitePattern: Sendable, Equatable, Codable {
    public let host: String
    /// `*.host`: subdomains of `host`.
    public let subdomains: Bool
    /// The path a URL's path must start with, "" for any.
    public let pathPrefix: String
    /// `https://` in front: only https URLs match.
    public let httpsOnly: Bool

    /// What a pattern may be, as problem sentences say it.
    public static let allowed =
        "must be host patterns such as \"example.com\", \"*.example.com\" or \"example.com/path\""

    public init?(_ text: String) {
        // On bytes: after lower-casing, a pattern that is not ASCII is refused
        // anyway (host and path characters are ASCII), so bytes and
        // characters split it alike.
        guard text.utf8.count <= 300 else { return nil }
        var contiguous = text
        guard let parts = contiguous.withUTF8(Self.parts) else { return nil }
        (host, subdomains, pathPrefix, httpsOnly) = parts
    }

    private static func parts(_ utf8: UnsafeBufferPointer<UInt8>) -> (String, Bool, String, Bool)? {
        // ASCII (every pattern that can pass) is lower-cased byte by byte,
        // without the full case mapping's allocations and tables.
        let lower: [UInt8] =
            utf8.allSatisfy { $0 < 0x80 }
            ? utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            : Array(String(decoding: utf8, as: UTF8.self).lowercased().utf8)
        var rest = lower[...]
        let httpsOnly = rest.starts(with: "https://".utf8)
        if httpsOnly { rest = rest.dropFirst(8) }
        let subdomains = rest.starts(with: "*.".utf8)
        if subdomains { rest = rest.dropFirst(2) }
        let slash = rest.firstIndex(of: 0x2F) ?? rest.endIndex
        let hostBytes = rest[..<slash]
        let pathBytes = rest[slash...]
        let bracketed = hostBytes.first == 0x5B
        let hostCharacters = hostBytes.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
                || ((byte == 0x3A || byte == 0x5B || byte == 0x5D) && bracketed)
        }
        let pathCharacters = pathBytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        guard let first = hostBytes.first, let last = hostBytes.last, hostCharacters, first != 0x2E, last != 0x2E,
            pathCharacters
        else { return nil }
        // Both are ASCII: the checks above allow nothing else.
        return (String(decoding: hostBytes, as: UTF8.self), subdomains, String(decoding: pathBytes, as: UTF8.self), httpsOnly)
    }

    /// Whether a URL with this host (lower case) and path matches.
    public func matches(host other: String, path: String = "/", https: Bool = true) -> Bool {
        if httpsOnly && !https { return false }
        let hostMatches = subdomains ? other.hasSuffix("." + host) : other == host
        return hostMatches && (pathPrefix.isEmpty || path.hasPrefix(pathPrefix))
    }
}
