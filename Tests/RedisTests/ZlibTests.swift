import Redis
import Testing

struct ZlibTests {
    @Test func roundTrip() throws {
        let text = Array(String(repeating: "<meta property=og:title content=linkpeek>", count: 50).utf8)
        let packed = try #require(Zlib.compress(text))
        #expect(packed.count < text.count)
        #expect(Zlib.decompress(packed, size: text.count) == text)
    }

    @Test func wrongSizeOrDamagedBytesAreNil() throws {
        let text = Array("a preview".utf8)
        let packed = try #require(Zlib.compress(text))
        #expect(Zlib.decompress(packed, size: text.count + 1) == nil)
        #expect(Zlib.decompress(packed, size: text.count - 1) == nil)
        #expect(Zlib.decompress(Array(packed.dropLast(2)), size: text.count) == nil)
        #expect(Zlib.decompress([0x78, 0x9c, 0xff, 0xff], size: 4) == nil)
        #expect(Zlib.decompress(packed, size: Zlib.maximumSize + 1) == nil)
        #expect(Zlib.decompress(packed, size: -1) == nil)
        #expect(Zlib.decompress(packed + [0], size: text.count) == nil)
    }
}
