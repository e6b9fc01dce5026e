import FoundationEssentials

/// The bundled oEmbed provider list: which URLs a provider describes, and
/// where its endpoint is. It is data, read by one matcher: adding a
/// provider is adding a row, never code.
///
/// A URL that matches a row is previewed from the provider's endpoint
/// without fetching the page (the page of a big video or social site is
/// a heavy JavaScript shell, a consent wall or a login wall to a bot); the
/// same row is the fallback when a page turns out to be a wall. Hosts that
/// run software anyone can install (Mastodon and the like) are not listed:
/// they are found by discovery on their pages (`OEmbedDiscovery`).
///
/// Schemes follow oembed.com's `providers.json`, without the URL scheme:
/// `host/path`, where `*` in the host stands for one or more labels before
/// the rest of the name and `*` in the path for any run of characters.
/// A URL matches over http or https, on the default port only.
public struct OEmbedProvider: Sendable, Equatable {
    public var name: String
    public var schemes: [String]
    public var endpoint: String

    public init(name: String, schemes: [String], endpoint: String) {
        self.name = name
        self.schemes = schemes
        self.endpoint = endpoint
    }
}

extension OEmbedProvider {
    /// The providers linkpeek knows without discovery.
    public static let bundled: [OEmbedProvider] = [
        OEmbedProvider(
            name: "YouTube",
            schemes: [
                "youtube.com/watch*", "*.youtube.com/watch*", "*.youtube.com/v/*", "*.youtube.com/shorts/*",
                "*.youtube.com/playlist?list=*", "youtube.com/shorts/*", "youtu.be/*",
            ],
            endpoint: "https://www.youtube.com/oembed"),
        OEmbedProvider(
            name: "Vimeo",
            schemes: [
                "vimeo.com/*", "*.vimeo.com/*", "player.vimeo.com/video/*",
            ],
            endpoint: "https://vimeo.com/api/oembed.json"),
        OEmbedProvider(
            name: "X",
            schemes: [
                "twitter.com/*/status/*", "*.twitter.com/*/status/*", "x.com/*/status/*", "*.x.com/*/status/*",
            ],
            endpoint: "https://publish.twitter.com/oembed"),
        OEmbedProvider(
            name: "Reddit",
            schemes: [
                "reddit.com/r/*/comments/*", "*.reddit.com/r/*/comments/*",
            ],
            endpoint: "https://www.reddit.com/oembed"),
        OEmbedProvider(
            name: "Flickr",
            schemes: [
                "flickr.com/photos/*", "*.flickr.com/photos/*", "flic.kr/p/*", "flic.kr/s/*",
            ],
            endpoint: "https://www.flickr.com/services/oembed/"),
        OEmbedProvider(
            name: "SoundCloud",
            schemes: [
                "soundcloud.com/*", "*.soundcloud.com/*", "on.soundcloud.com/*",
            ],
            endpoint: "https://soundcloud.com/oembed"),
        OEmbedProvider(
            name: "Spotify",
            schemes: [
                "open.spotify.com/*", "play.spotify.com/*",
            ],
            endpoint: "https://open.spotify.com/oembed"),
        OEmbedProvider(
            name: "TikTok",
            schemes: [
                "tiktok.com/*/video/*", "*.tiktok.com/*/video/*", "*.tiktok.com/@*",
            ],
            endpoint: "https://www.tiktok.com/oembed"),
        OEmbedProvider(
            name: "Bluesky",
            schemes: [
                "bsky.app/profile/*/post/*",
            ],
            endpoint: "https://embed.bsky.app/oembed"),
    ]

    /// The endpoint request for `url` from the first provider of `providers`
    /// whose scheme it matches, or nil.
    public static func request(for url: String, in providers: [OEmbedProvider] = bundled) -> String? {
        guard let target = OEmbedTarget(url) else { return nil }
        for provider in providers where provider.schemes.contains(where: target.matches) {
            return OEmbedEndpoint.request(endpoint: provider.endpoint, for: url)
        }
        return nil
    }
}

/// A URL taken apart for scheme matching: host and path-with-query.
struct OEmbedTarget {
    let host: String
    let pathAndQuery: String

    /// Nil unless `url` is http or https on the default port with a host.
    init?(_ url: String) {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            scheme == "http" || scheme == "https", parsed.port == nil || parsed.port == (scheme == "https" ? 443 : 80),
            let host = parsed.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.host = host.hasSuffix(".") ? String(host.dropLast()) : host
        // The path as written (percent-encoding kept), with the query.
        guard let afterAuthority = url.firstRange(of: "://").map({ url[$0.upperBound...] }) else { return nil }
        let rest = afterAuthority.drop { $0 != "/" && $0 != "?" && $0 != "#" }
        let withoutFragment = rest.prefix { $0 != "#" }
        pathAndQuery = withoutFragment.isEmpty ? "/" : String(withoutFragment)
    }

    /// Whether `scheme` (`host/path`, `*` wildcards) covers this URL.
    func matches(_ scheme: String) -> Bool {
        guard let slash = scheme.firstIndex(of: "/") else { return false }
        let hostPattern = scheme[..<slash].lowercased()
        let pathPattern = scheme[slash...]
        if hostPattern.hasPrefix("*.") {
            let suffix = hostPattern.dropFirst(1)  // ".youtube.com"
            guard host.hasSuffix(suffix), host.count > suffix.count else { return false }
        } else if host != hostPattern {
            return false
        }
        return Self.glob(Array(pathPattern.utf8), Array(pathAndQuery.utf8))
    }

    /// `*` matches any run of bytes; everything else itself (ASCII case-sensitive, as paths are).
    static func glob(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
        var (p, t) = (0, 0)
        var star: Int?, resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = p
                resume = t
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}

/// Builds endpoint requests: `endpoint?url=…&format=json` (JSON only).
enum OEmbedEndpoint {
    static func request(endpoint: String, for url: String) -> String {
        let separator = endpoint.contains("?") ? "&" : "?"
        return endpoint + separator + "url=" + percentEncoded(url) + "&format=json"
    }

    /// Every byte but RFC 3986's unreserved ones percent-encoded, as a query value needs.
    static func percentEncoded(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}
