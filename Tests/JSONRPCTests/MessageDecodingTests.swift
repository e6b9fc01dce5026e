import Testing

@testable import JSONRPC

/// Tier 1: the decode policy on literal JSON.
@Suite struct MessageDecodingTests {
    func decode(_ json: String) -> Incoming {
        Message.decode(Array(json.utf8))
    }

    func single(_ json: String) -> Decoded? {
        if case .single(let decoded) = decode(json) { return decoded }
        return nil
    }

    func errorCode(_ json: String) -> (RequestID?, ErrorCode)? {
        if case .invalid(let id, let error)? = single(json) { return (id, error.code) }
        return nil
    }

    @Test func requestsWithEveryKindOfId() {
        #expect(single(#"{"jsonrpc":"2.0","id":0,"method":"m"}"#) == .message(.request(id: 0, method: "m", params: nil)))
        #expect(single(#"{"jsonrpc":"2.0","id":"","method":"m","params":null}"#) == .message(.request(id: "", method: "m", params: nil)))
        #expect(single(#"{"jsonrpc":"2.0","id":"7","method":"m","params":{"a":[1,2.5,true,null]}}"#)
            == .message(.request(id: "7", method: "m", params: ["a": [1, 2.5, true, nil]])))
    }

    @Test func escapedSlashesAreOrdinaryJSON() {
        #expect(single(#"{"jsonrpc":"2.0","id":1,"method":"fetch","params":{"url":"https:\/\/a.example\/"}}"#)
            == .message(.request(id: 1, method: "fetch", params: ["url": "https://a.example/"])))
    }

    @Test func notificationsIncludingUnknownOnes() {
        #expect(single(#"{"jsonrpc":"2.0","method":"whatever/unknown"}"#) == .message(.notification(method: "whatever/unknown", params: nil)))
        #expect(single(#"{"jsonrpc":"2.0","method":"exit","params":[]}"#) == .message(.notification(method: "exit", params: [])))
    }

    @Test func clientResponsesAreAccepted() {
        #expect(single(#"{"jsonrpc":"2.0","id":3,"result":{"x":1}}"#) == .message(.result(3, ["x": 1])))
        #expect(single(#"{"jsonrpc":"2.0","id":3}"#) == .message(.result(3, nil)))
        #expect(single(#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no"}}"#)
            == .message(.error(nil, .invalidRequest("no"))))
    }

    @Test func parseErrors() {
        #expect(errorCode(#"{"jsonrpc":"2.0","id":1,"method":"#)! == (nil, .parseError))
        #expect(errorCode("")! == (nil, .parseError))
        let invalidUTF8: [UInt8] = Array(#"{"jsonrpc":"2.0","id":1,"method":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        guard case .single(.invalid(let id, let error)) = Message.decode(invalidUTF8) else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(id == nil && error.code == .parseError)
    }

    @Test func invalidRequestsAnsweredWithTheirIdWhenRecoverable() {
        #expect(errorCode("12")! == (nil, .invalidRequest))
        #expect(errorCode("null")! == (nil, .invalidRequest))
        #expect(errorCode(#""text""#)! == (nil, .invalidRequest))
        #expect(errorCode(#"{"id":4,"method":"m"}"#)! == (4, .invalidRequest))
        #expect(errorCode(#"{"jsonrpc":"1.0","id":"s","method":"m"}"#)! == ("s", .invalidRequest))
        #expect(errorCode(#"{"jsonrpc":"2.0","id":5,"method":5}"#)! == (5, .invalidRequest))
        #expect(errorCode(#"{"jsonrpc":"2.0","id":6,"method":"m","params":"x"}"#)! == (6, .invalidRequest))
        #expect(errorCode(#"{"jsonrpc":"2.0","id":null,"method":"m"}"#)! == (nil, .invalidRequest))
        #expect(errorCode(#"{"jsonrpc":"2.0","id":true,"method":"m"}"#)! == (nil, .invalidRequest))
        #expect(errorCode(#"{"jsonrpc":"2.0","id":[1],"method":"m"}"#)! == (nil, .invalidRequest))
        #expect(errorCode(#"{"jsonrpc":"2.0"}"#)! == (nil, .invalidRequest))
    }

    @Test func batches() {
        #expect(errorCode("[]")! == (nil, .invalidRequest))
        guard case .batch(let elements) = decode(#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},3]"#) else {
            Issue.record("not a batch")
            return
        }
        #expect(elements.count == 3)
        #expect(elements[0] == .message(.request(id: 1, method: "a", params: nil)))
        #expect(elements[1] == .message(.notification(method: "n", params: nil)))
        #expect(elements[2] == .invalid(id: nil, error: .invalidRequest("Invalid request: expected an object, found a number")))
    }

    @Test func roundTrip() {
        let messages: [Message] = [
            .request(id: 0, method: "fetch", params: ["url": "https://a/b"]),
            .notification(method: "$/progress", params: ["token": "t", "value": ["kind": "end"]]),
            .result("x", nil),
            .error(nil, ResponseError(code: .requestCancelled, message: "c", data: ["kind": "cancelled"])),
        ]
        for message in messages {
            #expect(Message.decode(Payload.single(message).encoded()) == .single(.message(message)))
        }
    }

    /// The parser keeps an odd id's text (`JSONTests`); the request echoes it.
    @Test func messagesWithOddIdsAreRequestsEchoedAsWritten() {
        for text in ["1e2", "1.0", "-9223372036854775809", "9223372036854775808", "1e-400", "1e400"] {
            let body = Array(#"{"jsonrpc":"2.0","id":\#(text),"method":"m"}"#.utf8)
            #expect(Message.decode(body) == .single(.message(.request(id: .number(text), method: "m", params: nil))))
        }
        #expect(Message.decode(Array(#"{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}"#.utf8))
            == .single(.message(.request(id: 2, method: "m", params: nil))))
    }
}
