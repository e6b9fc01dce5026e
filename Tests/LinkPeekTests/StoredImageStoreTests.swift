import FoundationEssentials
import Testing

@testable import LinkPeek

/// Tier 1: how an image is kept as a blob of the persistent cache.
@Suite struct StoredImageStoreTests {
    @Test func anImageComesBackAsItWasStored() throws {
        let blob = ImageBlob(
            bytes: [0x89, 0x50, 0x4E, 0x47, 0x0A, 0x00, 0xFF], type: "image/png", width: 40, height: 20,
            sourceURL: "https://a.example/i.png?x=\"1\"\n", expiresAt: Date(timeIntervalSince1970: 1_900_000_000.5),
            sourceType: "image/bmp")
        let encoded = try #require(StoredImageStore.encode(blob))
        #expect(try StoredImageStore.decode(encoded) == blob)
    }

    @Test func aBlobFromBeforeSourceTypeHasNone() throws {
        let bytes = Array(#"{"type":"image/png","width":4,"height":2,"sourceURL":"u","expiresAt":1}"#.utf8) + [0x0A, 0x89]
        let blob = try StoredImageStore.decode(bytes)
        #expect(blob.sourceType == "" && blob.bytes == [0x89] && blob.width == 4)
    }

    @Test func damagedBlobsSayWhatIsWrong() {
        let cases: [([UInt8], String)] = [
            ([], "no header line"), ([0x0A], "not JSON"), (Array("not json\n".utf8), "not JSON"),
            (Array("{\"type\":\"x\"}\nabc".utf8), "width missing"),
            (Array(#"{"type":"x","width":"1","height":1,"sourceURL":"u","expiresAt":1}"#.utf8) + [0x0A],
             "width of the wrong type"),
            (Array(#"{"type":"x","width":-1,"height":1,"sourceURL":"u","expiresAt":1}"#.utf8) + [0x0A],
             "header out of range"),
        ]
        for (bytes, damage) in cases {
            #expect(throws: StoredDamage(damage), "\(bytes)") { try StoredImageStore.decode(bytes) }
        }
    }
}
