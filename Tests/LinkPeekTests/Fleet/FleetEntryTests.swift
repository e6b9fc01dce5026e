import FoundationEssentials
import Redis
import Testing

@testable import LinkPeek

/// Fleet entries as they go to Redis and come back: what decodes is exactly
/// what was stored; anything else is refused with what is wrong (ignored, then overwritten).
struct FleetEntryTests {
    static let expires = Date(timeIntervalSince1970: 1_900_000_000.25)

    static var preview: CacheEntry {
        var metadata = LinkMetadata(originalURL: "https://example.com/a")
        metadata.title = "A shared preview — ünïcode"
        metadata.url = "https://example.com/a"
        return CacheEntry(
            value: .metadata(metadata), expiresAt: expires, mustRevalidate: true, etag: "\"v1\"",
            lastModified: "Tue, 01 Dec 2026 10:00:00 GMT")
    }

    @Test func previewRoundTrip() throws {
        let bytes = try #require(FleetEntry.encode(Self.preview))
        #expect(Array(bytes.prefix(4)) == Array("LPF1".utf8))
        let decoded = try FleetEntry.decode(bytes)
        // As the local store does, the body is the served form (`fromCache: true`).
        var served = Self.preview
        if case .metadata(var metadata) = served.value {
            metadata.fromCache = true
            served.value = .metadata(metadata)
        }
        #expect(decoded == served)
        #expect(decoded.servedJSON == Self.preview.servedJSON)
    }

    @Test func failureRoundTripKeepsReasonAndStatus() throws {
        let error = FetchError.httpStatus(503)
        let entry = CacheEntry(value: .failure(error), expiresAt: Self.expires)
        let bytes = try #require(FleetEntry.encode(entry))
        let decoded = try FleetEntry.decode(bytes)
        guard case .failure(let shared) = decoded.value else {
            Issue.record("a failure came back as \(decoded.value)")
            return
        }
        #expect(shared == error)
        #expect(decoded.expiresAt == Self.expires)
    }

    @Test func everyTruncationAndEveryFlippedByteOfTheHeaderIsRefused() throws {
        let bytes = try #require(FleetEntry.encode(Self.preview))
        for length in 0..<bytes.count {
            #expect(throws: StoredDamage.self, "prefix of \(length) bytes decoded") { try FleetEntry.decode(Array(bytes.prefix(length))) }
        }
        for index in 0..<8 {
            var damaged = bytes
            damaged[index] ^= 0x41
            #expect(throws: StoredDamage.self, "byte \(index) flipped decoded") { try FleetEntry.decode(damaged) }
        }
        #expect(throws: StoredDamage("does not decompress to its size")) { try FleetEntry.decode(bytes + [0]) }
    }

    @Test func wellFormedButWrongInsideIsRefused() throws {
        // Valid zlib of a body that is not a preview, and of trailing bytes after the fields.
        for plain in [[UInt8](repeating: 7, count: 40), [0, 0] + [UInt8](repeating: 0, count: 8)] {
            var bytes = FleetEntry.magic
            withUnsafeBytes(of: UInt32(plain.count).littleEndian) { bytes += $0 }
            bytes += try #require(Zlib.compress(plain))
            #expect(throws: StoredDamage("fields out of layout")) { try FleetEntry.decode(bytes) }
        }
    }

    @Test func aBodyThatIsNoPreviewSaysWhichFieldIsWrong() throws {
        var plain: [UInt8] = [0, 0] + [UInt8](repeating: 0, count: 8) + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let body = Array("{}".utf8)
        withUnsafeBytes(of: UInt32(body.count).littleEndian) { plain += $0 }
        plain += body
        var bytes = FleetEntry.magic
        withUnsafeBytes(of: UInt32(plain.count).littleEndian) { bytes += $0 }
        bytes += try #require(Zlib.compress(plain))
        #expect(throws: StoredDamage("originalURL missing")) { try FleetEntry.decode(bytes) }
        #expect(throws: StoredDamage("not a fleet entry")) { try FleetEntry.decode(Array("not an entry".utf8)) }
    }
}

struct FleetRateTests {
    @Test(arguments: [
        ("http://Example.COM:8080/a?b", "example.com"), ("https://user:pw@host.test/", "host.test"),
        ("http://[::1]:80/x", "[::1]"), ("https://h.test", "h.test"), ("https://h.test#frag", "h.test"),
    ])
    func hostOfURL(url: String, host: String) {
        #expect(FleetCache.host(of: url) == host)
    }

    @Test func hostOfNonURLIsNil() {
        #expect(FleetCache.host(of: "no scheme") == nil)
        #expect(FleetCache.host(of: "http:///path") == nil)
    }

    @Test func localBucketGivesTheBurstThenSpacesAtTheRate() {
        let gate = LocalRateGate(rate: 4)
        let admissions = (0..<6).map { _ in gate.admit(host: "h", longest: 10) }
        #expect(admissions.prefix(4).allSatisfy { $0 == .after(0) })
        // The fifth and sixth reserve the next tokens: a quarter and a half second away.
        guard case .after(let fifth) = admissions[4], case .after(let sixth) = admissions[5] else {
            Issue.record("\(admissions)")
            return
        }
        #expect(fifth > 0.2 && fifth <= 0.25)
        #expect(sixth > 0.45 && sixth <= 0.5)
        #expect(gate.admit(host: "h", longest: 0.1) == .tooLong)
        // Another host has its own bucket.
        #expect(gate.admit(host: "other", longest: 0) == .after(0))
    }
}
