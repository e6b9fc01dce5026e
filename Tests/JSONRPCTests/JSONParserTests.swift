import FoundationEssentials
import Testing

@testable import JSONRPC

/// Tier 1: the fast parser reads every text as `JSONDecoder` does, and
/// declines (so that `JSONDecoder` decides) whatever it is unsure of.
@Suite struct JSONParserTests {
    func fast(_ text: String) -> JSONValue? {
        Array(text.utf8).withUnsafeBufferPointer(JSONParser.parse)
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
            #expect(fast(text) != nil, "declined \(text)")
            #expect(fast(text) == reference(text), "\(text)")
        }
    }

    @Test func declinesWhatItIsUnsureOf() {
        let texts = [
            "", " ", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "-", "1e", "+1", "nul", "truex", "1 2",
            #"{"a":1,"a":2}"#, #""\ud800""#, #""\udc00x""#, "\"\u{1}\"", #""\x""#, "[1e400]",
            "{\"a\" 1}", "[1 2]", "'a'", String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        ]
        for text in texts {
            let value = fast(text)
            #expect(value.map { _ in false } ?? true, "accepted \(text) as \(String(describing: value))")
        }
    }

    @Test func messagesDecodeTheSameEitherWay() {
        // A duplicate key sends the body down the JSONDecoder path; the message is still read.
        let fallback = Message.decode(Array(#"{"jsonrpc":"2.0","id":1,"id":1,"method":"m"}"#.utf8))
        #expect(fallback == .single(.message(.request(id: 1, method: "m", params: nil))))
        #expect(Message.decode(Array(#"{"jsonrpc":"2.0","id":1.0,"method":"m"}"#.utf8))
            == .single(.message(.request(id: 1, method: "m", params: nil))))
    }
}
