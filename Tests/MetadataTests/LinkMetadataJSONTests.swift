import PureTestSupport
import FoundationEssentials
import JSON
import Testing

@testable import Metadata

/// `LinkMetadata.jsonBytes()` writes its members itself, keys in order; it
/// must write what `WireJSON` writes for the value, byte for byte, with
/// every field set and with any of them left out.
@Suite struct LinkMetadataJSONTests {
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
        let metadata = Previews.full("x")
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
        for text in Previews.hostile { try expectSame(Previews.full(text)) }
        try expectSame(LinkMetadata(originalURL: ""))
    }

    @Test func eachFieldLeftOutIsWrittenAsWireJSONWritesIt() throws {
        for clear in Self.clearers {
            var metadata = Previews.full("é \"x\"")
            clear(&metadata)
            try expectSame(metadata)
        }
        for clear in Self.imageClearers {
            var metadata = Previews.full("y")
            clear(&metadata.image!)
            try expectSame(metadata)
        }
    }

    @Test func anyFieldsLeftOutAreWrittenAsWireJSONWritesThem() throws {
        var generator = SeededGenerator(seed: 29)
        for round in 0..<300 {
            var metadata = Previews.full(Previews.hostile[round % Previews.hostile.count])
            for clear in Self.clearers where generator.next() & 1 == 0 { clear(&metadata) }
            if metadata.image != nil {
                for clear in Self.imageClearers where generator.next() & 1 == 0 { clear(&metadata.image!) }
            }
            try expectSame(metadata)
        }
    }
}
