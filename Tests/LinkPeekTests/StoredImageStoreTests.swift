import FoundationEssentials
import Testing

@testable import LinkPeek

/// Tier 1: how an image is kept as a blob of the persistent cache.
@Suite struct StoredImageStoreTests {
    @Test func anImageComesBackAsItWasStored() {
        let blob = ImageBlob(
            bytes: [0x89, 0x50, 0x4E, 0x47, 0x0A, 0x00, 0xFF], type: "image/png", width: 40, height: 20,
            sourceURL: "https://a.example/i.png?x=\"1\"\n", expiresAt: Date(timeIntervalSince1970: 1_900_000_000.5),
            sourceType: "image/bmp")
        let encoded = StoredImageStore.encode(blob)
        #expect(encoded.flatMap(StoredImageStore.decode) == blob)
    }

    @Test func aBlobFromBeforeSourceTypeHasNone() {
        let bytes = Array(#"{"type":"image/png","width":4,"height":2,"sourceURL":"u","expiresAt":1}"#.utf8) + [0x0A, 0x89]
        let blob = StoredImageStore.decode(bytes)
        #expect(blob?.sourceType == "" && blob?.bytes == [0x89] && blob?.width == 4)
    }

    @Test func damagedBlobsAreMisses() {
        let cases: [[UInt8]] = [
            [], [0x0A], Array("not json\n".utf8), Array("{\"type\":\"x\"}\nabc".utf8),
            Array(#"{"type":"x","width":-1,"height":1,"sourceURL":"u","expiresAt":1}"#.utf8) + [0x0A],
        ]
        for bytes in cases {
            #expect(StoredImageStore.decode(bytes) == nil, "\(bytes)")
        }
    }
}
