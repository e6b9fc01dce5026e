import JSON
import PureTestSupport
import Testing

/// `JSONObjectCheck` says yes exactly where `JSONParser` reads one object,
/// for every valid UTF-8 input, and no to bytes that are not UTF-8.
@Suite struct JSONObjectCheckTests {
    func parsesAsObject(_ bytes: [UInt8]) -> Bool {
        if case .success(.object) = JSONParser.parse(bytes) { return true }
        return false
    }

    @Test func objectsPass() {
        let texts = [
            "{}", " {\n} \t", #"{"a":1}"#, #"{"a":[1,-2.5e+3,0.1E2,true,false,null,{"b":"c"}],"d":{}}"#,
            #"{"s":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800 lone"}"#, #"{"é":"日本語 😀"}"#, #"{"a":1,"a":2}"#,
            #"{"big":1e400,"neg":-0}"#,
        ]
        for text in texts {
            #expect(JSONObjectCheck.isObject(Array(text.utf8)), "\(text)")
            #expect(parsesAsObject(Array(text.utf8)), "\(text)")
        }
    }

    @Test func everythingElseFails() {
        let texts = [
            "", " ", "[]", #""s""#, "1", "null", "{", "}", #"{"a"}"#, #"{"a":}"#, #"{"a":1,}"#, #"{,"a":1}"#,
            #"{"a":1}x"#, #"{"a":1}{}"#, #"{'a':1}"#, #"{a:1}"#, #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#,
            #"{"a":1e}"#, #"{"a":+1}"#, #"{"a":tru}"#, #"{"a":"\x"}"#, #"{"a":"\u12G4"}"#, #"{"a":"\u12"}"#,
            "{\"a\":\"tab\there\"}", #"{"a":"unterminated}"#, #"{"a":[1,2}"#, #"{"a":{"b":1]}"#, #"{"a":[,1]}"#,
        ]
        for text in texts {
            #expect(!JSONObjectCheck.isObject(Array(text.utf8)), "\(text)")
            #expect(!parsesAsObject(Array(text.utf8)), "\(text)")
        }
    }

    @Test func bytesThatAreNotUTF8Fail() {
        let bad: [[UInt8]] = [
            [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF0, 0x80, 0x80, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xC3], [0xE6, 0x97], [0xF0, 0x9F, 0x98],
        ]
        for sequence in bad {
            let bytes = Array(#"{"a":""#.utf8) + sequence + Array(#""}"#.utf8)
            #expect(!JSONObjectCheck.isObject(bytes), "\(sequence)")
        }
        let good: [[UInt8]] = [[0xC3, 0xA9], [0xE0, 0xA0, 0x80], [0xED, 0x9F, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF]]
        for sequence in good {
            #expect(JSONObjectCheck.isObject(Array(#"{"a":""#.utf8) + sequence + Array(#""}"#.utf8)), "\(sequence)")
        }
    }

    @Test func depthIsTheParsers() {
        func nested(_ depth: Int) -> [UInt8] {
            // An object holding arrays, `depth` containers in all, the innermost empty.
            Array(("{\"a\":" + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}").utf8)
        }
        let limit = JSONParser.maximumDepth
        #expect(JSONObjectCheck.isObject(nested(limit)) && parsesAsObject(nested(limit)))
        #expect(!JSONObjectCheck.isObject(nested(limit + 1)) && !parsesAsObject(nested(limit + 1)))
        // Far deeper than any stack would allow a recursive check: refused, not a crash.
        #expect(!JSONObjectCheck.isObject(Array(String(repeating: "{\"a\":[", count: 100_000).utf8)))
    }

    /// Damaged copies of real previews: cut, bytes changed, inserted or removed.
    @Test func agreesWithTheParserOnDamagedPreviews() {
        var random = SeededGenerator(seed: SeededGenerator.seed(default: 20261127))
        let previews = [
            #"{"expiresAt":"2026-11-28T00:00:00Z","fromCache":true,"icon":{"url":"https:\/\/example.com\/favicon.ico"},"originalURL":"https://example.com/a?b=1&c=2","summary":"Der Bär — \"quoted\" \u00e9 😀","title":"A title","url":"https://example.com/a"}"#,
            #"{"image":{"height":630,"width":1200,"url":"https://e.com/i.jpg"},"redirects":[{"status":301,"url":"http://e.com/"}],"richness":0.75,"tags":["a","b"],"video":null}"#,
        ].map { Array($0.utf8) }
        let alphabet = Array(#"{}[]:,"\ 0123456789.eE+-truefalsnul/bfnrtu"#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xED, 0xF0, 0x80]
        var agreed = (valid: 0, invalid: 0)
        for _ in 0..<20_000 {
            var bytes = previews[Int.random(in: 0..<previews.count, using: &random)]
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0...bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes = Array(bytes[..<at])
                case 1 where at < bytes.count: bytes[at] = alphabet.randomElement(using: &random) ?? 0
                case 2: bytes.insert(alphabet.randomElement(using: &random) ?? 0, at: at)
                default: if at < bytes.count { bytes.remove(at: at) }
                }
            }
            let checked = JSONObjectCheck.isObject(bytes)
            if String(validating: bytes, as: UTF8.self) == nil {
                #expect(!checked, "\(bytes)")
            } else {
                #expect(checked == parsesAsObject(bytes), "\(String(decoding: bytes, as: UTF8.self))")
                if checked { agreed.valid += 1 } else { agreed.invalid += 1 }
            }
        }
        // Both answers were met often enough for the comparison to mean something.
        #expect(agreed.valid > 500 && agreed.invalid > 5_000, "\(agreed)")
    }
}
