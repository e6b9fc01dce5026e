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
    @Test func aFullPreviewWithHostileTextIsTheSame() throws {
        for text in Previews.hostile {
            let metadata = Previews.full(text)
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
