import FoundationEssentials
import JSON
import Testing

@testable import Metadata

/// `LinkMetadata.jsonBytes()` writes its members itself, keys in order; it
/// must write what `WireJSON` writes for the value, byte for byte, with
/// every field set and with any of them left out.
@Suite struct LinkMetadataJSONTests {
    private static let hostile: [String] = [
        "", "plain", #"a "quoted" \ back\slash / slash"#,
        String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) }) + "\u{7F}",
        "Café – 東京 👩‍👩‍👧 \u{2028}\u{2029} </script>",
    ]

    /// A preview with every field set, `text` in its strings.
    private static func full(_ text: String) -> LinkMetadata {
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

    /// Clears one optional field of a preview or of its image: one per
    /// optional stored property (`everyOptionalFieldIsSetAndClearable`).
    private static let clearers: [@Sendable (inout LinkMetadata) -> Void] = [
        { $0.url = nil }, { $0.canonicalURL = nil }, { $0.title = nil }, { $0.rawTitle = nil }, { $0.summary = nil },
        { $0.siteName = nil }, { $0.type = nil }, { $0.lang = nil }, { $0.locale = nil }, { $0.icon = nil },
        { $0.icons = nil }, { $0.image = nil }, { $0.images = nil }, { $0.video = nil }, { $0.remoteVideoURL = nil },
        { $0.audio = nil }, { $0.author = nil }, { $0.authors = nil }, { $0.authorURL = nil }, { $0.publishedTime = nil },
        { $0.themeColor = nil }, { $0.richness = nil }, { $0.redirects = nil }, { $0.sources = nil },
        { $0.truncated = nil }, { $0.bytesRead = nil }, { $0.fetchedAt = nil }, { $0.expiresAt = nil },
        { $0.fromCache = nil }, { $0.stale = nil }, { $0.savedAt = nil }, { $0.tags = nil }, { $0.failure = nil },
        { $0.site = nil },
    ]

    private static let imageClearers: [@Sendable (inout MediaResource) -> Void] = [
        { $0.type = nil }, { $0.width = nil }, { $0.height = nil }, { $0.alt = nil }, { $0.bytes = nil },
        { $0.data = nil }, { $0.thumbnail = nil },
    ]

    private func expectSame(_ metadata: LinkMetadata, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let written = try metadata.jsonBytes()
        let encoded = try WireJSON.bytes(of: metadata)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self),
                sourceLocation: sourceLocation)
    }

    /// The stored properties of `value` that are optionals holding nothing.
    private static func nilChildren(of value: Any) -> [String] {
        Mirror(reflecting: value).children.compactMap { child in
            let mirror = Mirror(reflecting: child.value)
            return mirror.displayStyle == .optional && mirror.children.isEmpty ? child.label ?? "?" : nil
        }
    }

    private static func optionalCount(of value: Any) -> Int {
        Mirror(reflecting: value).children.count { Mirror(reflecting: $0.value).displayStyle == .optional }
    }

    /// A field added to `LinkMetadata` or `MediaResource` must be set in
    /// `full` and cleared in `clearers`, so that the tests below see it.
    @Test func everyOptionalFieldIsSetAndClearable() throws {
        let metadata = Self.full("x")
        #expect(Self.nilChildren(of: metadata) == [])
        #expect(Self.nilChildren(of: try #require(metadata.image)) == [])
        #expect(Self.clearers.count == Self.optionalCount(of: metadata))
        #expect(Self.imageClearers.count == Self.optionalCount(of: try #require(metadata.image)))
        for clear in Self.clearers {
            var cleared = metadata
            clear(&cleared)
            #expect(Self.nilChildren(of: cleared).count == 1)
        }
    }

    @Test func aFullPreviewIsWrittenAsWireJSONWritesIt() throws {
        for text in Self.hostile { try expectSame(Self.full(text)) }
        try expectSame(LinkMetadata(originalURL: ""))
    }

    @Test func eachFieldLeftOutIsWrittenAsWireJSONWritesIt() throws {
        for clear in Self.clearers {
            var metadata = Self.full("é \"x\"")
            clear(&metadata)
            try expectSame(metadata)
        }
        for clear in Self.imageClearers {
            var metadata = Self.full("y")
            clear(&metadata.image!)
            try expectSame(metadata)
        }
    }

    @Test func anyFieldsLeftOutAreWrittenAsWireJSONWritesThem() throws {
        var generator = SplitMix(seed: 29)
        for round in 0..<300 {
            var metadata = Self.full(Self.hostile[round % Self.hostile.count])
            for clear in Self.clearers where generator.next() & 1 == 0 { clear(&metadata) }
            if metadata.image != nil {
                for clear in Self.imageClearers where generator.next() & 1 == 0 { clear(&metadata.image!) }
            }
            try expectSame(metadata)
        }
    }
}

/// A small seeded generator, so that the rounds are the same on every run.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
