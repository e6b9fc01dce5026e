import FoundationEssentials
import JSON
import Testing

@testable import Metadata

/// `WireJSON` writes what Foundation's `JSONEncoder` writes with sorted keys
/// and unescaped slashes, byte for byte, compact and pretty, for previews
/// with every field set and with hostile text in them, and for doubles and
/// dates (the reference encoder lives here, in the tests only).
@Suite struct WireJSONTests {
    private static func reference(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private func expectSame<T: Encodable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for pretty in [false, true] {
            let reference = Array(try Self.reference(pretty: pretty).encode(value))
            let written = try WireJSON.bytes(of: value, pretty: pretty)
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: reference, as: UTF8.self),
                    "pretty: \(pretty)", sourceLocation: sourceLocation)
        }
    }

    /// Quotes, backslashes, slashes, every control character, DEL, non-ASCII
    /// (accents, CJK, an emoji, U+2028) and an empty string.
    private static let hostile: [String] = [
        "", "plain", #"a "quoted" \ back\slash / slash"#,
        String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) }) + "\u{7F}",
        "Café – 東京 👩‍👩‍👧 \u{2028}\u{2029} </script>",
    ]

    @Test func aFullPreviewWithHostileTextIsTheSame() throws {
        for text in Self.hostile {
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
            var image = MediaResource(url: "https://example.com/i.png", type: "image/png", width: 1200, height: -1)
            image.alt = text
            image.bytes = Int.max
            image.thumbnail = MediaThumbnail(type: "image/webp", width: 64, height: 32, bytes: 0, data: "AAAA/+==")
            metadata.image = image
            metadata.images = [image, MediaResource(url: "https://example.com/j.jpg")]
            metadata.icon = MediaResource(url: "https://example.com/favicon.ico")
            metadata.icons = []
            metadata.video = MediaResource(url: "https://example.com/v.mp4", type: "video/mp4")
            metadata.remoteVideoURL = "https://example.com/v.mp4"
            metadata.audio = MediaResource(url: "https://example.com/a.mp3")
            metadata.author = text
            metadata.publishedTime = "2024-05-01T10:00:00+02:00"
            metadata.themeColor = "#fff"
            metadata.richness = .video
            metadata.redirects = [RedirectHop(url: "http://example.com/", status: 301), RedirectHop(url: text, status: 308)]
            // Keys that sort differently by bytes than by characters, and a non-ASCII one.
            metadata.sources = ["title": "og:title", "Z": text, "a": "", "é": "x", "ö": "y", "~": "z", text + "!": "key"]
            metadata.truncated = true
            metadata.bytesRead = 0
            metadata.fetchedAt = "2026-01-01T00:00:00Z"
            metadata.expiresAt = "2026-01-02T00:00:00Z"
            metadata.fromCache = false
            metadata.stale = true
            metadata.savedAt = "2026-01-01T00:00:00Z"
            metadata.tags = [text, "b", ""]
            try expectSame(metadata)
        }
    }

    @Test func aBarePreviewIsTheSame() throws {
        try expectSame(LinkMetadata(originalURL: "https://example.com/"))
        try expectSame([LinkMetadata(originalURL: "x")])
        try expectSame(["k": [1, -2, 0]])
    }

    @Test func doublesAndDatesAreTheSame() throws {
        try expectSame(["x": 1.5, "y": 3, "z": 1e20, "w": 1e-7, "v": -0.0, "u": 123456789012.25, "t": 0.1])
        try expectSame([Float(0.1), Float(3), Float(1e-7)])
        try expectSame([Date(timeIntervalSince1970: 0), Date(timeIntervalSinceReferenceDate: 12.5)])
    }

    @Test func emptyAndNestedContainersAreTheSame() throws {
        try expectSame([String: [Int]]())
        try expectSame([[Int]]())
        struct Nested: Encodable {
            var a = [[String: Int]()]
            var b = [[Int]()]
            var c = [["d": [1, 2]]]
        }
        try expectSame(Nested())
        try expectSame(["a:b,c{d}[e]": #"\"quoted\", {x: [y]}"#])
    }

    @Test func whatJSONCannotSpellIsRefused() {
        #expect(throws: EncodingError.self) { try WireJSON.bytes(of: ["x": Double.nan]) }
        #expect(throws: EncodingError.self) { try WireJSON.bytes(of: [Double.infinity]) }
        #expect(throws: EncodingError.self) { try WireJSON.bytes(of: [Data([1])]) }
    }
}
