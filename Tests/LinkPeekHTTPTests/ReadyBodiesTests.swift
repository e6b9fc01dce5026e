import Testing

@testable import LinkPeekHTTP

/// A preview's headers worked out once (`ReadyBodies`) are the ones worked
/// out from its bytes each time, and a body is never given another's.
struct ReadyBodiesTests {
    private func preview(_ title: String, expires: String = "2026-01-02T00:00:10Z") -> [UInt8] {
        Array(#"{"title":"\#(title)","expiresAt":"\#(expires)"}"#.utf8)
    }

    @Test func headersAreThoseOfTheBytes() {
        let bodies = ReadyBodies()
        for json in [preview("a"), preview("b", expires: "2025-01-01T00:00:00Z"), Array("{}".utf8)] {
            for _ in 0..<2 {
                let ready = bodies.ready(json)
                #expect(ready.etag == ETag.of(json))
                #expect(ready.cacheControl(now: 1_767_312_000) == PreviewFreshness.cacheControl(json, now: 1_767_312_000))
                #expect(Array(ready.buffer.readableBytesView) == json)
            }
        }
    }

    /// Bodies of the same length, each in its own array, past the capacity and back.
    @Test func aBodyIsNeverAnsweredWithAnothersHeaders() {
        let bodies = ReadyBodies(capacity: 3)
        let jsons = (0..<8).map { preview("t\($0)") }
        for round in 0..<3 {
            for json in (round == 1 ? jsons.reversed() : jsons) {
                let copy = Array(json)
                #expect(bodies.ready(copy).etag == ETag.of(json))
                #expect(bodies.ready(json).etag == ETag.of(json))
            }
        }
    }
}
