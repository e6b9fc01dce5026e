import FoundationEssentials
import Testing

@testable import JSON

/// Tier 1: the parser reads ordinary JSON as `JSONDecoder` does, refuses
/// what the grammar refuses, and makes the documented decisions where the
/// grammar allows what a Swift value cannot hold.
@Suite struct JSONParserTests {
    func parse(_ text: String) -> Result<JSONValue, JSONParser.Failure> {
        Array(text.utf8).withUnsafeBufferPointer(JSONParser.parse)
    }

    func value(_ text: String) -> JSONValue? {
        try? parse(text).get()
    }

    func reference(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test func readsWhatJSONDecoderReads() {
        let texts = [
            #"{"jsonrpc":"2.0","id":1,"method":"getCached","params":{"url":"https:\/\/a.example\/?q=1"}}"#,
            #" [ 1 , -0 , 1.0 , 1e2 , -1E0 , 0.5e1 , 1.5 , 1e-7 , 99999999999999999999 , 9223372036854775807 ] "#,
            #"{"s":"\"\\\/\b\f\n\r\t\u00e9\u4e2d\ud83d\ude00 raw é 😀","t":true,"f":false,"n":null,"e":{},"a":[]}"#,
            #""just a string""#, "3", "-12.25", "null",
            #"[[[[[]]]],{"a":{"b":{"c":[{}]}}}]"#,
        ]
        for text in texts {
            #expect(value(text) != nil, "refused \(text)")
            #expect(value(text) == reference(text), "\(text)")
        }
    }

    @Test func refusesWhatTheGrammarRefuses() {
        let texts = [
            "", " ", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "1e", "+1", "nul", "truex", "1 2",
            "\"\u{1}\"", #""\x""#, "{\"a\" 1}", "[1 2]", "'a'", #""\u12""#, #"{"id":1e}"#,
        ]
        for text in texts {
            guard case .failure(.syntax) = parse(text) else {
                Issue.record("accepted \(text) as \(String(describing: value(text)))")
                continue
            }
        }
    }

    /// Strings are read eight bytes at a time up to a quote, a backslash or
    /// a control byte: each ends the plain run wherever it stands in a word,
    /// and other bytes (space, DEL, UTF-8) do not.
    @Test func plainRunsStopAtEveryQuoteBackslashAndControlByte() {
        for length in 0...20 {
            let plain = String(repeating: "a", count: length)
            #expect(value("\"\(plain)\"") == .string(plain))
            #expect(value("[\"\(plain)\",\"\(plain)bbbbbbbbbbbbbbbbbb\"]") == .array([.string(plain), .string(plain + "bbbbbbbbbbbbbbbbbb")]))
            #expect(value("\"\(plain)\\n\(plain)\"") == .string(plain + "\n" + plain))
            #expect(value("\"\(plain)\\\"bbbbbbbbbbb\"") == .string(plain + "\"bbbbbbbbbbb"))
            #expect(value("\"\(plain) \u{7F}é\(plain)\"") == .string(plain + " \u{7F}é" + plain))
            for control in ["\u{0}", "\u{1}", "\u{1F}", "\n"] {
                #expect(value("\"\(plain)\(control)\(plain)bbbbbbbbbbb\"") == nil, "\(length)")
            }
        }
    }

    @Test func syntaxErrorsSayWhere() {
        #expect(parse(#"{"a":[1,2,}"#) == .failure(.syntax(offset: 10)))
    }

    @Test func nestingPastTheLimitIsRefusedAsTooDeep() {
        let limit = JSONParser.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(value(deepest) != nil)
        for depth in [limit + 1, 10_000] {
            let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            #expect(parse(text) == .failure(.tooDeep))
        }
        let objects = String(repeating: #"{"a":"#, count: 1_000) + "1" + String(repeating: "}", count: 1_000)
        #expect(parse(objects) == .failure(.tooDeep))
    }

    @Test func unpairedSurrogatesReadAsReplacementCharacters() {
        #expect(value(#""\ud800""#) == .string("\u{FFFD}"))
        #expect(value(#""\udc00x""#) == .string("\u{FFFD}x"))
        #expect(value(#""a\ud800\u0041""#) == .string("a\u{FFFD}A"))
        #expect(value(#""\ud800\ud800\udc00""#) == .string("\u{FFFD}\u{10000}"))
        #expect(value(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test func numbersBeyondDoubleSaturate() {
        #expect(value("1e400") == .double(.greatestFiniteMagnitude))
        #expect(value("-1e400") == .double(-.greatestFiniteMagnitude))
        #expect(value("1e-400") == .int(0))
        #expect(value(String(repeating: "9", count: 400)) == .double(.greatestFiniteMagnitude))
    }

    @Test func duplicateKeysKeepTheLastValue() {
        #expect(value(#"{"a":1,"a":2}"#) == .object(["a": 2]))
    }

    @Test func idsKeepTheirTextUnlessPlainIntegers() {
        let cases: [(String, JSONValue)] = [
            ("7", .int(7)), ("-0", .int(0)), ("9223372036854775807", .int(.max)),
            ("9223372036854775808", .number("9223372036854775808")),
            ("-9223372036854775809", .number("-9223372036854775809")),
            ("1e2", .number("1e2")), ("1.0", .number("1.0")), ("1e-400", .number("1e-400")),
            ("1e400", .number("1e400")), ("1.5", .number("1.5")),
        ]
        for (text, expected) in cases {
            #expect(value(#"{"id":\#(text)}"#) == .object(["id": expected]), "\(text)")
            // Only members named `id` keep their text.
            #expect(value(#"{"x":\#(text)}"#) != .object(["x": .number(text)]), "\(text)")
        }
    }

    /// Integers are read from their digits as `Int(text)` reads them; one
    /// past `Int`'s range goes the `Double` way.
    @Test func integersReadAsIntReadsThem() {
        for text in ["0", "-0", "7", "-7", "10", "9223372036854775807", "-9223372036854775808",
                     "9223372036854775808", "-9223372036854775809", "92233720368547758070"] {
            let double = Double(text) ?? 0
            let expected: JSONValue = Int(text).map(JSONValue.int) ?? Int(exactly: double).map(JSONValue.int) ?? .double(double)
            #expect(value(text) == expected, "\(text)")
            #expect(value("[\(text)]") == .array([expected]), "\(text)")
        }
    }

    /// Objects inside objects and arrays keep their own members, with or
    /// without escapes in their strings.
    @Test func nestedObjectsKeepTheirMembers() {
        let text = #"{"a":{"b":1,"c":{"d":[{"e":"x\"y"},{"f":2,"f":3}],"g":"h"}},"i":[{}],"j":"k\u00e9l","l":"plain"}"#
        // A repeated key keeps its last value ("f"), where `JSONDecoder` keeps its first.
        #expect(value(text) == .object([
            "a": .object(["b": .int(1), "c": .object(["d": .array([.object(["e": .string("x\"y")]), .object(["f": .int(3)])]),
                                                      "g": .string("h")])]),
            "i": .array([.object([:])]), "j": .string("kél"), "l": .string("plain"),
        ]))
    }
}
