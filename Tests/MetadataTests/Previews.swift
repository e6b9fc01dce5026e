@testable import Metadata

/// Previews the JSON writers' tests share: text that JSON must escape, and
/// a preview with every field set.
enum Previews {
    static let hostile: [String] = [
        "", "plain", #"a "quoted" \ back\slash / slash"#,
        String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) }) + "\u{7F}",
        "Café – 東京 👩‍👩‍👧 \u{2028}\u{2029} </script>",
    ]

    /// A preview with every field set, `text` in its strings.
    static func full(_ text: String) -> LinkMetadata {
        var metadata = LinkMetadata(originalURL: "https://example.com/a?b=c&d=\(text)")
        metadata.url = "https://example.com/final"
        metadata.canonicalURL = text
        metadata.title = text
        metadata.rawTitle = text + " | Site"
        metadata.summary = text
        metadata.siteName = "Site"
        metadata.type = "article"
        metadata.lang = "en"
        metadata.locale = "en_US"
        var image = MediaResource(url: "https://example.com/i.png", type: "image/png", width: 1200, height: -1, alt: text)
        image.bytes = Int.max
        image.data = "iVBORw0KGgo="
        image.thumbnail = MediaThumbnail(type: "image/webp", width: 64, height: 32, bytes: 0, data: "AAAA/+==")
        metadata.image = image
        metadata.images = [image, MediaResource(url: "https://example.com/j.jpg")]
        metadata.icon = MediaResource(url: "https://example.com/favicon.ico", isUnverifiedFallback: true)
        metadata.icons = []
        metadata.video = MediaResource(url: "https://example.com/v.mp4", type: "video/mp4")
        metadata.remoteVideoURL = "https://example.com/v.mp4"
        metadata.audio = MediaResource(url: "https://example.com/a.mp3", width: Int.min)
        metadata.author = text + ", Bo"
        metadata.authors = [text, "Bo"]
        metadata.authorURL = "https://example.com/ann"
        metadata.publishedTime = "2024-05-01T10:00:00+02:00"
        metadata.themeColor = "#fff"
        metadata.richness = .image
        metadata.redirects = [RedirectHop(url: "http://example.com/", status: 301), .refresh(url: text)]
        // Keys that sort differently by bytes than by characters, and a non-ASCII one.
        metadata.sources = ["title": "og:title", "Z": text, "a": "", "é": "x", "ö": "y", "~": "z", text + "!": "key"]
        metadata.truncated = false
        metadata.bytesRead = 0
        metadata.fetchedAt = "2026-01-01T00:00:00Z"
        metadata.expiresAt = "2026-01-02T00:00:00Z"
        metadata.fromCache = true
        metadata.stale = true
        metadata.savedAt = "2026-01-01T00:00:00Z"
        metadata.tags = [text, "b", ""]
        metadata.failure = SavedFailure(kind: "http", reason: text, message: "Not Found", status: 404)
        var site = SiteInfo(engine: "github", kind: "pullRequest")
        site.state = "merged"
        site.labels = [text]
        site.number = 7
        site.accepted = false
        metadata.site = site
        return metadata
    }
}
