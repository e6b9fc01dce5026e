import TextTrimming

/// Guesses the MIME type of a response that came without a `Content-Type`,
/// from its first bytes, in the manner of the WHATWG MIME Sniffing
/// standard's "rules for identifying an unknown MIME type".
///
/// Deviations, each for link previews: a UTF-8 byte order mark before
/// markup is skipped (the standard would say text/plain); XML is told apart
/// into XHTML, SVG, RSS and Atom by its root element; `<meta` and `<link`
/// count as HTML openers; and plain text or unknown binary give nil rather
/// than text/plain or application/octet-stream.
public enum ContentSniffer {
    /// The MIME type `prefix` looks like: HTML, XHTML/XML, an image type
    /// `ImageProbe` knows, video (MP4, WebM, …), audio (MP3, Ogg, …) or PDF;
    /// nil when it looks like none of them.
    public static func sniff(_ prefix: [UInt8]) -> String? {
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let markup = bytes.drop(while: WhiteSpaceByte.isHTMLSpace)
        if isHTML(markup) { return "text/html" }
        if startsWith(markup, "<?xml") { return xmlType(Array(markup)) }
        if startsWith(bytes, "%PDF-") { return "application/pdf" }
        if let image = ImageProbe.probe(Array(bytes.prefix(ImageProbe.svgSearchLength))) { return image.mimeType }
        return audioOrVideo(ByteView(Array(bytes.prefix(512))))
    }

    /// The openers that make a document HTML, each to be followed by a
    /// space or `>` (a "tag-terminating byte").
    private static let htmlOpeners = [
        "<!doctype html", "<html", "<head", "<script", "<iframe", "<h1", "<div", "<font", "<table",
        "<a", "<style", "<title", "<b", "<body", "<br", "<p", "<!--", "<meta", "<link",
    ]

    static func isHTML(_ bytes: ArraySlice<UInt8>) -> Bool {
        htmlOpeners.contains { opener in
            guard startsWith(bytes, opener, caseInsensitive: true) else { return false }
            let next = bytes.dropFirst(opener.utf8.count).first
            return next == UInt8(ascii: " ") || next == UInt8(ascii: ">")
                || (opener == "<!--" && next != nil) || next == UInt8(ascii: "\t") || next == UInt8(ascii: "\n")
        }
    }

    /// XML, named after its root element.
    static func xmlType(_ bytes: [UInt8]) -> String {
        var scanner = ImageProbe.MarkupScanner(bytes: Array(bytes.prefix(ImageProbe.svgSearchLength)))
        scanner.skipProlog()
        let name = scanner.tagName().map { $0.split(separator: ":").last.map(String.init) ?? $0 }
        switch name {
        case "html": return "application/xhtml+xml"
        case "svg": return "image/svg+xml"
        case "rss", "rdf": return "application/rss+xml"
        case "feed": return "application/atom+xml"
        default: return "text/xml"
        }
    }

    static func startsWith(_ bytes: ArraySlice<UInt8>, _ literal: String, caseInsensitive: Bool = false) -> Bool {
        let pattern = Array(literal.utf8)
        guard bytes.count >= pattern.count else { return false }
        return zip(bytes, pattern).allSatisfy { byte, expected in
            (caseInsensitive ? ASCIIByte.lowercased(byte) : byte) == expected
        }
    }
}
