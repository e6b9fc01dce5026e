import PureTestSupport
import Testing
@testable import HTMLHead

/// The one-pass search finds a word exactly where a search for each word
/// in turn does.
@Suite struct WordSetTests {
    /// The definition: some word occurs at some position, ASCII case folded on the value.
    static func naive(_ words: [[UInt8]], _ value: [UInt8]) -> Bool {
        words.contains { word in
            word.isEmpty || (0..<value.count).contains { start in
                start + word.count <= value.count
                    && word.indices.allSatisfy { ByteCursor.lower(value[start + $0]) == word[$0] }
            }
        }
    }

    static func occurs(_ set: WordSet, _ value: [UInt8]) -> Bool {
        (value + [0]).withUnsafeBufferPointer { set.occurs(in: $0.baseAddress!) }
    }

    @Test func findsWhatASearchPerWordFinds() {
        var random = SeededGenerator(seed: SeededGenerator.seed(default: 40_2026))
        let words = ["byline", "author", "by", "posted-by", "/people/", "é"].map { Array($0.utf8) }
        let pieces = words + ["BYLINE", "Auth", "or", "-", " ", "x", "Ée", "/"].map { Array($0.utf8) }
        for round in 0..<2_000 {
            let chosen = words.filter { _ in Bool.random(using: &random) }
            var value: [UInt8] = []
            for _ in 0..<Int.random(in: 0...8, using: &random) { value += pieces.randomElement(using: &random) ?? [] }
            #expect(Self.occurs(WordSet(chosen), value) == Self.naive(chosen, value),
                    "round \(round): \(chosen.map { String(decoding: $0, as: UTF8.self) }) in \(String(decoding: value, as: UTF8.self))")
        }
    }

    @Test func edges() {
        let set = WordSet([Array("author".utf8)])
        #expect(Self.occurs(set, Array("AUTHOR".utf8)))
        #expect(Self.occurs(set, Array("x-author".utf8)))
        #expect(!Self.occurs(set, Array("autho".utf8)))
        #expect(!Self.occurs(set, []))
        #expect(Self.occurs(WordSet([[]]), []))
        #expect(!Self.occurs(WordSet([]), Array("author".utf8)))
    }
}
