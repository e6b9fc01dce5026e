import FoundationEssentials
import Testing

@testable import JSONRPC

/// Tier 1: the hand-written writer gives the bytes `JSONEncoder` gave before
/// it, so clients (and transcripts) see no difference.
@Suite struct MessageEncodingTests {
    func text(_ payload: Payload) -> String {
        String(decoding: payload.encoded(), as: UTF8.self)
    }

    /// What the old encoder wrote: the message as a `JSONValue` through `JSONEncoder`.
    func reference(_ payload: Payload) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(payload.jsonValue), as: UTF8.self)
    }

    static let awkward: JSONValue = [
        "b": "quote \" backslash \\ slash / newline \n tab \t cr \r bs \u{8} ff \u{c} nul \u{0} esc \u{1b} del \u{7f}",
        "A": [1, -0, 1.5, 1e20, 1e-7, 0.1, 1e15, 123456789012345678.0, nil, true, false],
        "_": ["Ab": 1, "aB": 2, "a10": 3, "a2": 4, "é": 5, "e": 6, "": 7],
        "unicode": "héllo 😀 \u{2028} 中文",
        "empty": [:], "list": [],
    ]

    @Test func everyMessageShapeMatchesJSONEncoder() throws {
        let messages: [Message] = [
            .request(id: 1, method: "fetch", params: Self.awkward),
            .request(id: "x", method: "shutdown", params: nil),
            .notification(method: "$/progress", params: ["token": 3, "value": Self.awkward]),
            .notification(method: "exit", params: nil),
            .result(7, Self.awkward),
            .result("", .null),
            .error(nil, .parseError("Parse error: \"bad\"")),
            .error(2, ResponseError(code: .requestCancelled, message: "Metadata fetch cancelled.", data: ["kind": "cancelled"])),
        ]
        for message in messages {
            #expect(try text(.single(message)) == reference(.single(message)))
        }
        #expect(try text(.batch(messages)) == reference(.batch(messages)))
    }

    @Test func rawJSONIsSplicedVerbatim() throws {
        let raw = RawJSON(trusted: Array(#"{"b":1,"a":"x/y"}"#.utf8))
        #expect(text(.single(.result(1, .raw(raw)))) == #"{"id":1,"jsonrpc":"2.0","result":{"b":1,"a":"x/y"}}"#)
        let nested: JSONValue = ["token": 1, "value": .raw(raw)]
        #expect(text(.single(.notification(method: "m", params: nested)))
            == #"{"jsonrpc":"2.0","method":"m","params":{"token":1,"value":{"b":1,"a":"x/y"}}}"#)
        #expect(try raw.parsed() == ["a": "x/y", "b": 1])
    }

    @Test func encodingStraightToBytesMatchesTheTree() throws {
        struct Sample: Encodable { var url = "https://a.example/x"; var title: String? = "T"; var none: Int? = nil }
        let raw = try RawJSON(encoding: Sample())
        #expect(text(.single(.result(1, .raw(raw)))) == text(.single(.result(1, try JSONValue(encoding: Sample())))))
    }

    @Test func aNonFiniteNumberBecomesAnInternalError() {
        #expect(text(.single(.result(1, .double(.nan)))).contains("-32603"))
    }
}

/// The message as a `JSONValue` tree, for the reference encoder above (tests only:
/// the product writes messages member by member, `JSONWriter.write(_:)`).
extension Message {
    var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["jsonrpc": "2.0"]
        switch self {
        case .request(let id, let method, let params):
            object["id"] = id.jsonValue
            object["method"] = .string(method)
            object["params"] = params
        case .notification(let method, let params):
            object["method"] = .string(method)
            object["params"] = params
        case .response(let id, .success(let value)):
            object["id"] = id?.jsonValue ?? .null
            object["result"] = value
        case .response(let id, .failure(let error)):
            object["id"] = id?.jsonValue ?? .null
            object["error"] = error.jsonValue
        }
        return .object(object)
    }
}

extension Payload {
    var jsonValue: JSONValue {
        switch self {
        case .single(let message): message.jsonValue
        case .batch(let messages): .array(messages.map(\.jsonValue))
        }
    }
}
