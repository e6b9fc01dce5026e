import LinkPeekTestSupport
import Testing
@testable import LinkPeek

/// `JSONReader` gives what `JSONDecoder` gives wherever it answers, and
/// leaves the doubtful cases to it.
@Suite struct JSONReaderTests {
    /// A value tree written out with sorted keys, for comparing two trees.
    static func canonical(_ value: Any) -> String {
        switch value {
        case let object as [String: Any]:
            return "{" + object.keys.sorted().map { "\($0.debugDescription):\(canonical(object[$0] as Any))" }
                .joined(separator: ",") + "}"
        case let array as [Any]:
            return "[" + array.map(canonical).joined(separator: ",") + "]"
        case let string as String:
            return string.debugDescription
        case let bool as Bool:
            return "bool:\(bool)"
        case let number as Double:
            return "num:\(number.bitPattern)"
        case is AnyJSON.Null:
            return "null"
        default:
            return "?\(type(of: value))"
        }
    }

    @Test func readsWhatTheDecoderReads() throws {
        let texts = [
            #"{"@context": "https://schema.org", "@type": "NewsArticle", "headline": "A \"quoted\" title"}"#,
            #"[{"a": [1, -2.5, 3e2, 0, -0.0, 1E-3], "b": true, "c": false, "d": null}, {}, []]"#,
            #"{"esc": "\u00e9\n\t\/\\ \ud83d\ude00 \u0041", "utf8": "é 東京 😀"}"#,
            " \n{\"spaced\" : [ 1 , { } ] }\r\n",
            #"{"big": 123456789012345678901234567890, "small": 0.000001, "exp": 1.5e+10}"#,
        ]
        for text in texts {
            let read = try #require(JSONReader.read(text), "\(text)")
            #expect(Self.canonical(read) == Self.canonical(try AnyJSON.decoded(text)), "\(text)")
        }
    }

    /// What it leaves to the decoder: not JSON, or JSON it does not vouch for.
    @Test func givesUpWhereItIsNotSure() {
        let texts = [
            "", "1", "\"top-level string\"", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "[01]", "[1.]", "[.5]", "[-]",
            "[1e]", "[1e400]", "[1e-400]", "{\"a\":1}x", "[tru]", "[\"raw\u{01}control\"]", "[\"\\ud800\"]",
            "[\"\\udc00\"]", "[\"\\x\"]", "{\"a\":1,\"a\":2}", "[\"unterminated]",
            String(repeating: "[", count: JSONReader.maxDepth + 1) + String(repeating: "]", count: JSONReader.maxDepth + 1),
        ]
        for text in texts { #expect(JSONReader.read(text) == nil, "\(text)") }
        let deep = String(repeating: "[", count: JSONReader.maxDepth) + String(repeating: "]", count: JSONReader.maxDepth)
        #expect(JSONReader.read(deep) != nil)
    }

    /// Seeded random JSON values (nested objects and arrays of strings with
    /// escapes, numbers, literals; keys may repeat), written with random
    /// spacing: whatever the reader reads, the decoder reads the same.
    @Test func agreesWithTheDecoderOnRandomTexts() {
        var random = SeededGenerator(seed: SeededGenerator.seed(default: 30_2026))
        let scalars = ["\"a\"", "\"\"", "\"\\u00e9\\n\"", "\"é 東\"", "\"\\ud83d\\ude00\"", "\"\\\"q\\/\"",
                       "0", "-0", "2.5", "-1e3", "1E-2", "12345678901234567890", "true", "false", "null"]
        let keys = ["\"@type\"", "\"name\"", "\"a\"", "\"b\"", "\"\\u0041\""]
        let spaces = ["", " ", "\n", "\t "]
        func value(_ depth: Int) -> String {
            let space = spaces.randomElement(using: &random) ?? ""
            switch depth < 4 ? Int.random(in: 0...3, using: &random) : 3 {
            case 0:
                let members = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    (keys.randomElement(using: &random) ?? "") + space + ":" + value(depth + 1)
                }
                return "{" + space + members.joined(separator: "," + space) + "}"
            case 1:
                return "[" + (0..<Int.random(in: 0...4, using: &random)).map { _ in value(depth + 1) }
                    .joined(separator: space + ",") + space + "]"
            default:
                return space + (scalars.randomElement(using: &random) ?? "") + space
            }
        }
        var read = 0
        for round in 0..<2_000 {
            let text = Bool.random(using: &random) ? "{\"k\":" + value(1) + "}" : "[" + value(1) + "]"
            guard let parsed = JSONReader.read(text) else { continue }
            read += 1
            let decoded = try? AnyJSON.decoded(text)
            #expect(decoded.map(Self.canonical) == Self.canonical(parsed), "round \(round): \(text)")
        }
        #expect(read > 1_000)
    }
}
