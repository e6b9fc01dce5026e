import FoundationEssentials
import LogCapture
import Redis
import Testing

@testable import LinkPeek

/// Bytes as linkpeek wrote them when Foundation's `JSONEncoder` wrote its
/// stored JSON (keys in no set order, slashes escaped as `\/`; a tape's
/// index pretty-printed), written out here by hand: the one reader
/// (`JSONParser` and `JSONValueDecoder`) reads every one of them, so old
/// cache rows, fleet entries, image blobs and tapes stay good.
struct StoredFormatsFromBeforeTests {
    static let failure = FetchError(
        kind: .failed, reason: .httpStatus, status: 503,
        message: "the server answered with HTTP status 503 at https://a.test/x.", wall: nil)

    @Test func aCachedFailureRow() throws {
        let body = #"{"status":503,"message":"the server answered with HTTP status 503 at https:\/\/a.test\/x.","kind":"failed","reason":"httpStatus"}"#
        let row = StoredEntry(
            key: "https://a.test/x", originalURL: "https://a.test/x", isFailure: true, body: Array(body.utf8),
            expiresAt: 1_900_000_000.5, mustRevalidate: false, etag: nil, lastModified: nil)
        let entry = try row.decodedEntry()
        #expect(entry.value == .failure(Self.failure))
        #expect(entry.expiresAt == Date(timeIntervalSince1970: 1_900_000_000.5))
    }

    @Test func aCachedWallRow() throws {
        let body = #"{"wall":"consent","kind":"failed","message":"the site asked for cookie consent before showing the page.","reason":"blocked"}"#
        let row = StoredEntry(
            key: "k", originalURL: "https://a.test/", isFailure: true, body: Array(body.utf8),
            expiresAt: 0, mustRevalidate: true, etag: "\"v\"", lastModified: nil)
        let entry = try row.decodedEntry()
        #expect(entry.value == .failure(FetchError(
            kind: .failed, reason: .blocked, status: nil,
            message: "the site asked for cookie consent before showing the page.", wall: .consent)))
        #expect(entry.mustRevalidate && entry.etag == "\"v\"")
    }

    @Test func aCachedPreviewRow() throws {
        let body = #"{"fromCache":true,"originalURL":"https://a.test/","title":"Un titre — ünïcode","url":"https://a.test/"}"#
        let row = StoredEntry(
            key: "k", originalURL: "https://a.test/", isFailure: false, body: Array(body.utf8),
            expiresAt: 1, mustRevalidate: false, etag: nil, lastModified: nil)
        let entry = try row.decodedEntry()
        guard case .metadata(let metadata) = entry.value else {
            Issue.record("a preview came back as \(entry.value)")
            return
        }
        #expect(metadata.title == "Un titre — ünïcode" && metadata.fromCache == true)
        #expect(entry.servedJSON == Array(body.utf8))
    }

    @Test func aSharedFailureInAFleetEntry() throws {
        let body = Array(#"{"kind":"failed","reason":"httpStatus","message":"the server answered with HTTP status 503 at https:\/\/a.test\/x.","status":503}"#.utf8)
        // The layout (unchanged): kind 1, flags 0, expiresAt, etag and lastModified absent, the body.
        var plain: [UInt8] = [1, 0]
        withUnsafeBytes(of: Double(1_900_000_000.25).bitPattern.littleEndian) { plain += $0 }
        plain += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        withUnsafeBytes(of: UInt32(body.count).littleEndian) { plain += $0 }
        plain += body
        var bytes = Array("LPF1".utf8)
        withUnsafeBytes(of: UInt32(plain.count).littleEndian) { bytes += $0 }
        bytes += try #require(Zlib.compress(plain))
        let entry = try FleetEntry.decode(bytes)
        #expect(entry.value == .failure(Self.failure))
        #expect(entry.expiresAt == Date(timeIntervalSince1970: 1_900_000_000.25))
    }

    @Test func anImageBlob() throws {
        let header = #"{"width":4,"sourceURL":"https:\/\/a.test\/i.png","expiresAt":1900000000.25,"type":"image\/png","height":2,"sourceType":"image\/png"}"#
        let blob = try StoredImageStore.decode(Array(header.utf8) + [0x0A, 0x89, 0x50])
        #expect(blob.type == "image/png" && blob.sourceURL == "https://a.test/i.png" && blob.sourceType == "image/png")
        #expect(blob.width == 4 && blob.height == 2 && blob.bytes == [0x89, 0x50])
        #expect(blob.expiresAt == Date(timeIntervalSince1970: 1_900_000_000.25))
    }

    /// A tape's index as `JSONEncoder` pretty-printed it: read back, and
    /// written again byte for byte when the same response is recorded.
    static let tapeIndex = """
        {
          "entries" : [
            {
              "body" : "bodies/\(Tape.fileName(for: "https://a.test/"))",
              "bytesRead" : 3,
              "finalURL" : "https://a.test/b",
              "headers" : {
                "content-type" : "text/html; charset=\\"utf-8\\""
              },
              "redirects" : [

              ],
              "status" : 200,
              "truncated" : false,
              "url" : "https://a.test/"
            }
          ],
          "version" : 1
        }
        """

    @Test func aTapeIndexReadsAndIsWrittenTheSame() throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "tape-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: root) }
        let old = root.appending(path: "old")
        try FileManager.default.createDirectory(at: old.appending(path: "bodies"), withIntermediateDirectories: true)
        try Data(Self.tapeIndex.utf8).write(to: old.appending(path: "index.json"))
        try Data([1, 2, 3]).write(to: old.appending(path: "bodies/" + Tape.fileName(for: "https://a.test/")))
        let log = LogCapture()
        let (entry, body) = try #require(try Tape.forReplay(at: old.path).lookup("https://a.test/", logger: log.logger(label: "tape")))
        #expect(body == [1, 2, 3] && entry.headers["content-type"] == #"text/html; charset="utf-8""#)

        let new = root.appending(path: "new")
        try Tape.forRecording(at: new.path).record(entry, body: body, logger: log.logger(label: "tape"))
        let written = try Data(contentsOf: new.appending(path: "index.json"))
        #expect(String(decoding: written, as: UTF8.self) == Self.tapeIndex)
        #expect(log.all.isEmpty)
    }
}
