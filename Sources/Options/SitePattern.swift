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
        var rest = Substring(text.lowercased())
        httpsOnly = rest.hasPrefix("https://")
        if httpsOnly { rest = rest.dropFirst("https://".count) }
        subdomains = rest.hasPrefix("*.")
        if subdomains { rest = rest.dropFirst(2) }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        host = String(rest[..<slash])
        pathPrefix = String(rest[slash...])
        let hostCharacters = host.utf8.allSatisfy { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E
                || ((byte == 0x3A || byte == 0x5B || byte == 0x5D) && host.hasPrefix("["))
        }
        let pathCharacters = pathPrefix.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
        guard !host.isEmpty, hostCharacters, !host.hasPrefix("."), !host.hasSuffix("."), pathCharacters,
            text.utf8.count <= 300
        else { return nil }
    }

    /// Whether a URL with this host (lower case) and path matches.
    public func matches(host other: String, path: String = "/", https: Bool = true) -> Bool {
        if httpsOnly && !https { return false }
        let hostMatches = subdomains ? other.hasSuffix("." + host) : other == host
        return hostMatches && (pathPrefix.isEmpty || path.hasPrefix(pathPrefix))
    }
}
