import LinkPeekTestSupport
import Redis
import Testing

@testable import Curl

/// `ContentDecoder`: gzip and deflate undone in steps, as far as the receiver reads.
struct ContentDecoderTests {
    /// A page-like text that compresses as HTML does (about 1:4).
    static let page: [UInt8] = {
        var generator = SeededGenerator(seed: 29)
        var text: [UInt8] = Array("<!DOCTYPE html><html><head><title>Decoder</title></head><body>".utf8)
        let words = ["alpha", "beta", "gamma", "delta", "<p>", "</p>", "epsilon", "zeta", "eta", "theta", "\n"]
        while text.count < 200_000 {
            text += Array(words[Int(generator.next() % UInt64(words.count))].utf8)
            text.append(UInt8(97 + generator.next() % 26))
            text.append(0x20)
        }
        return text + Array("</body></html>".utf8)
    }()

    /// The decoded bytes of `encoded` fed in chunks of `chunk` bytes, and the last outcome.
    static func decode(
        _ encoded: [UInt8], codings: [ContentDecoder.Coding], chunk: Int, upTo limit: Int = .max
    ) -> (bytes: [UInt8], outcome: ContentDecoder.Outcome, largestStep: Int) {
        guard let decoder = ContentDecoder(codings: codings) else { return ([], .failed("no decoder"), 0) }
        var decoded: [UInt8] = []
        var largest = 0
        var outcome = ContentDecoder.Outcome.consumed
        var start = 0
        while start < encoded.count, outcome == .consumed {
            let end = min(encoded.count, start + chunk)
            outcome = encoded[start..<end].withUnsafeBytes { part in
                decoder.decode(part) { step in
                    decoded += step
                    largest = max(largest, step.count)
                    return decoded.count < limit
                }
            }
            start = end
        }
        return (decoded, outcome, largest)
    }

    @Test(arguments: [1, 2, 3, 5, 9, 10, 11, 64, 1000, 4096, 16_384, 1 << 20])
    func gzipInAnyChunking(chunk: Int) {
        let result = Self.decode(gzip(Self.page), codings: [.gzip], chunk: chunk)
        #expect(result.outcome == .consumed)
        #expect(result.bytes == Self.page)
        #expect(result.largestStep <= ContentDecoder.stepBytes)
    }

    @Test(arguments: [1, 2, 3, 7, 100, 1 << 20])
    func deflateZlibWrappedAndRaw(chunk: Int) throws {
        let zlib = try #require(Zlib.compress(Self.page))
        let raw = Array(zlib[2..<(zlib.count - 4)])
        for encoded in [zlib, raw] {
            let result = Self.decode(encoded, codings: [.deflate], chunk: chunk)
            #expect(result.outcome == .consumed)
            #expect(result.bytes == Self.page)
        }
    }

    @Test(arguments: [1, 7, 333, 1 << 20])
    func everyGzipMemberIsDecoded(chunk: Int) {
        let parts = [Array(Self.page[0..<100]), Array(Self.page[100..<150_000]), [], Array(Self.page[150_000...])]
        let encoded = parts.flatMap { gzip($0) }
        let result = Self.decode(encoded, codings: [.gzip], chunk: chunk)
        #expect(result.outcome == .consumed)
        #expect(result.bytes == Self.page)
    }

    @Test func listsAreUndoneLastCodingFirst() throws {
        #expect(ContentDecoder.codings(of: "gzip, identity") == [.gzip])
        #expect(ContentDecoder.codings(of: " X-GZip ") == [.gzip])
        #expect(ContentDecoder.codings(of: "identity") == [])
        #expect(ContentDecoder.codings(of: "") == [])
        #expect(ContentDecoder.codings(of: "deflate, gzip") == [.gzip, .deflate])
        #expect(ContentDecoder.codings(of: "br") == nil)
        #expect(ContentDecoder.codings(of: "gzip, zstd") == nil)
        #expect(ContentDecoder.codings(of: "compress") == nil)
        #expect(ContentDecoder.codings(of: "gzip, gzip, gzip, gzip, gzip") == nil)
        // deflate applied first, then gzip: gzip is undone first.
        let encoded = gzip(try #require(Zlib.compress(Self.page)))
        for chunk in [1, 50, 1 << 20] {
            let result = Self.decode(encoded, codings: [.gzip, .deflate], chunk: chunk)
            #expect(result.outcome == .consumed)
            #expect(result.bytes == Self.page)
        }
    }

    @Test func damagedBytesFail() {
        var encoded = gzip(Self.page)
        for index in 40..<80 { encoded[index] ^= 0x55 }
        let result = Self.decode(encoded, codings: [.gzip], chunk: 4096)
        guard case .failed = result.outcome else { Issue.record("\(result.outcome)"); return }
        #expect(Self.decode(Array("<html>not gzip".utf8), codings: [.gzip], chunk: 3).outcome != .consumed)
        // After a complete member, only another member may follow.
        let trailed = Self.decode(gzip(Self.page) + Array("garbage".utf8), codings: [.gzip], chunk: 4096)
        guard case .failed = trailed.outcome else { Issue.record("\(trailed.outcome)"); return }
        #expect(trailed.bytes == Self.page)
    }

    @Test func aTruncatedStreamGivesWhatItHolds() {
        let encoded = gzip(Self.page)
        let result = Self.decode(Array(encoded[0..<(encoded.count / 2)]), codings: [.gzip], chunk: 1000)
        #expect(result.outcome == .consumed)
        #expect(result.bytes.count > 50_000)
        #expect(Array(Self.page[0..<result.bytes.count]) == result.bytes)
    }

    /// The receiver's stop stops the inflating: a chunk is decoded only as far as it reads.
    @Test func decodesOnlyAsFarAsTheReceiverReads() {
        let encoded = gzip(Self.page)
        let result = Self.decode(encoded, codings: [.gzip], chunk: 1 << 20, upTo: 20_000)
        #expect(result.outcome == .stopped)
        #expect(result.bytes.count == 2 * ContentDecoder.stepBytes)
        #expect(result.bytes == Array(Self.page[0..<result.bytes.count]))
    }

    /// 64 MiB of zeros in about 64 KiB: cut where the receiver stops, never inflated whole.
    @Test func aBombIsCutAtTheReceiversLimit() throws {
        let zeros = [UInt8](repeating: 0, count: 64 << 20)
        // The cut comes long before the member's trailer: its CRC is left 0.
        let encoded = gzip(zeros, withCRC: false)
        #expect(encoded.count < 100_000)
        let limit = 2 << 20
        let result = Self.decode(encoded, codings: [.gzip], chunk: 16_384, upTo: limit)
        #expect(result.outcome == .stopped)
        #expect(result.bytes.count >= limit && result.bytes.count <= limit + ContentDecoder.stepBytes)
        #expect(result.largestStep <= ContentDecoder.stepBytes)
    }
}

/// One gzip member of `bytes` (RFC 1952), made from zlib's deflate stream.
func gzip(_ bytes: [UInt8], withCRC: Bool = true) -> [UInt8] {
    guard let zlib = Zlib.compress(bytes), zlib.count >= 6 else { return [] }
    var member: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
    member += zlib[2..<(zlib.count - 4)]
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in withCRC ? bytes[...] : [] {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    crc ^= 0xFFFF_FFFF
    let size = UInt32(truncatingIfNeeded: bytes.count)
    for shift in stride(from: 0, to: 32, by: 8) { member.append(UInt8(truncatingIfNeeded: crc >> UInt32(shift))) }
    for shift in stride(from: 0, to: 32, by: 8) { member.append(UInt8(truncatingIfNeeded: size >> UInt32(shift))) }
    return member
}
