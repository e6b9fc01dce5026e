import FoundationEssentials
import TextTrimming

/// Resolves the URLs a page writes (relative, protocol-relative, with spaces
/// or non-ASCII characters) against `<base href>` and the page URL.
///
/// Foundation's `URL(string:relativeTo:)` rejects or mangles hrefs that
/// browsers accept, so hrefs are first brought into RFC 3986 shape the way a
/// browser would: tabs and newlines dropped, backslashes read as slashes,
/// characters outside the URL grammar percent-encoded.
package struct URLResolver: Sendable {
    /// What relative references resolve against: the base element's href
    /// (itself resolved against the page), else the page URL.
    let base: URL?

    package init(pageURL: String, baseHref: String?) {
        let page = URLResolver.parse(pageURL, relativeTo: nil)
        if let baseHref, let resolved = URLResolver.parse(baseHref, relativeTo: page),
           resolved.scheme == "http" || resolved.scheme == "https" {
            base = resolved
        } else {
            base = page
        }
    }

    /// How a resolved reference may be used.
    enum Kind: Equatable {
        /// An http or https URL.
        case web
        /// An inline `data:` URL: kept for images only when nothing else exists.
        case data
    }

    /// The absolute form of `href`, or nil when it is empty, a `javascript:`
    /// URL, or a scheme a preview cannot load.
    func resolve(_ href: String?) -> (url: String, kind: Kind)? {
        guard let href else { return nil }
        let trimmed = href.trimmedWhitespace
        guard !trimmed.isEmpty else { return nil }
        // Only an ASCII "data:" in any case starts so once lowercased
        // (no other character lowers to those letters); the full test then
        // settles a combining mark after the colon.
        if ASCIIText.hasPrefix(trimmed, bytes: "data:"), trimmed.lowercased().hasPrefix("data:") {
            // Data URLs are self-contained; re-encoding them would only risk damage.
            return (trimmed, .data)
        }
        guard let url = URLResolver.parse(trimmed, relativeTo: base),
              let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else { return nil }
        return (url.absoluteString, .web)
    }

    /// The web URL for `href`, dropping data URLs.
    package func resolveWeb(_ href: String?) -> String? {
        guard let resolved = resolve(href), resolved.kind == .web else { return nil }
        return resolved.url
    }

    /// `scheme://host[:port]/favicon.ico` of the page, where browsers look
    /// when a page declares no icon.
    package func faviconFallback() -> String? {
        guard let base, let scheme = base.scheme, let host = base.host, !host.isEmpty,
              scheme == "http" || scheme == "https" else { return nil }
        let port = base.port.map { ":\($0)" } ?? ""
        // An IPv6 literal needs its brackets back in a URL.
        let authority = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(authority)\(port)/favicon.ico"
    }

    private static func parse(_ href: String, relativeTo base: URL?) -> URL? {
        // Non-ASCII in a host is an internationalised domain name, which
        // Foundation turns into punycode; percent-encoding it would make a
        // different, invalid host. Keep it raw first, encode all on failure.
        let url = URL(string: browserEncoded(href, keepingHost: true), relativeTo: base)
            ?? URL(string: browserEncoded(href, keepingHost: false), relativeTo: base)
        return url?.absoluteURL
    }

    /// Characters allowed to stay as they are in a URL (RFC 3986 reserved and
    /// unreserved); everything else is percent-encoded as UTF-8.
    /// A table by byte value: hashing each byte into a `Set` cost more than
    /// the rest of the encoding.
    private static let allowed: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=".utf8 {
            table[Int(byte)] = true
        }
        return table
    }()

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func browserEncoded(_ href: String, keepingHost: Bool = false) -> String {
        // Most hrefs hold only bytes that stay: they are their own encoding (no copy).
        var plain = href
        if plain.withUTF8({ $0.allSatisfy { allowed[Int($0)] } }) { return href }
        var bytes: [UInt8] = []
        let utf8 = Array(href.utf8)
        bytes.reserveCapacity(utf8.count)
        let host = keepingHost ? authorityRange(utf8) : 0..<0
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            switch byte {
            case 0x80... where host.contains(index):
                bytes.append(byte)
            case 0x09, 0x0A, 0x0D:
                break  // WHATWG: tabs and newlines inside URLs are removed.
            case UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "/"))
            case UInt8(ascii: "%") where isHex(utf8, index + 1) && isHex(utf8, index + 2):
                bytes.append(byte)  // Already an escape: keep it, do not double-encode.
            case _ where allowed[Int(byte)]:
                bytes.append(byte)
            default:
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
            index += 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Where the authority (`user@host:port`) of `//…` or `scheme://…` lies, as byte offsets.
    private static func authorityRange(_ bytes: [UInt8]) -> Range<Int> {
        let slash = UInt8(ascii: "/")
        var start: Int?
        if bytes.starts(with: [slash, slash]) {
            start = 2
        } else if let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
                  bytes[..<colon].allSatisfy({ $0 < 0x80 && (isLetter($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")) }),
                  bytes[colon...].starts(with: [UInt8(ascii: ":"), slash, slash]) {
            start = colon + 3
        }
        guard let start else { return 0..<0 }
        let end = bytes[start...].firstIndex { $0 == slash || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "\\") }
        return start..<(end ?? bytes.count)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isHex(_ bytes: [UInt8], _ index: Int) -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
             UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
