import Testing

@testable import JSONRPC

/// Tier 1: the framer on raw bytes, fed whole and one byte at a time.
@Suite struct MessageFramerTests {
    func lsp(_ body: String, header: String = "Content-Length") -> String {
        "\(header): \(body.utf8.count)\r\n\r\n\(body)"
    }

    /// Feeds `input` one byte at a time, then ends the stream.
    func bytewise(_ input: [UInt8], maxMessageSize: Int = MessageFramer.defaultMaxMessageSize) -> [FramerEvent] {
        var framer = MessageFramer(maxMessageSize: maxMessageSize)
        var events: [FramerEvent] = []
        for byte in input { events += framer.feed([byte]) }
        return events + framer.finish()
    }

    func whole(_ input: [UInt8], maxMessageSize: Int = MessageFramer.defaultMaxMessageSize) -> [FramerEvent] {
        var framer = MessageFramer(maxMessageSize: maxMessageSize)
        return framer.feed(input) + framer.finish()
    }

    func messages(_ bodies: String...) -> [FramerEvent] {
        bodies.map { .message(Array($0.utf8)) }
    }

    @Test func lspOneByteAtATime() {
        let input = lsp(#"{"a":1}"#) + lsp(#"{"b":"ü"}"#) + lsp("[1]")
        #expect(bytewise(Array(input.utf8)) == messages(#"{"a":1}"#, #"{"b":"ü"}"#, "[1]"))
        #expect(whole(Array(input.utf8)) == messages(#"{"a":1}"#, #"{"b":"ü"}"#, "[1]"))
    }

    @Test func lspHeadersAnyCaseWithContentType() {
        let input =
            "content-length: 2\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}"
            + "Content-Type: application/json\r\nCONTENT-LENGTH:3\r\n\r\n[1]"
            + "X-Other: yes\r\nContent-Length:  4 \r\n\r\n\"ab\""
        #expect(bytewise(Array(input.utf8)) == messages("{}", "[1]", "\"ab\""))
    }

    @Test func ndjsonOneByteAtATime() {
        let input = "  \n{\"a\":1}\n\r\n[2]\r\n\n{\"c\":\"x\"}"
        #expect(bytewise(Array(input.utf8)) == messages(#"{"a":1}"#, "[2]", #"{"c":"x"}"#))
        var framer = MessageFramer()
        _ = framer.feed(Array(input.utf8))
        #expect(framer.framing == .ndjson)
    }

    @Test func framingChosenByFirstNonWhitespaceByte() {
        var lspFramer = MessageFramer()
        _ = lspFramer.feed(Array(" \r\nContent-Length: 2\r\n\r\n{}".utf8))
        #expect(lspFramer.framing == .lsp)
        var undecided = MessageFramer()
        _ = undecided.feed(Array(" \n\t".utf8))
        #expect(undecided.framing == nil)
    }

    @Test func lspTooLargeIsSkippedAndStaysInSync() {
        let big = String(repeating: "x", count: 100)
        let input = lsp(big) + lsp("{}")
        #expect(bytewise(Array(input.utf8), maxMessageSize: 50) == [.error(.messageTooLarge)] + messages("{}"))
        #expect(whole(Array(input.utf8), maxMessageSize: 50) == [.error(.messageTooLarge)] + messages("{}"))
    }

    @Test func hugeContentLengthIsNotBuffered() {
        var framer = MessageFramer()
        #expect(framer.feed(Array("Content-Length: 1000000000\r\n\r\n".utf8)) == [.error(.messageTooLarge)])
        for _ in 0..<16 { #expect(framer.feed([UInt8](repeating: 0x20, count: 1 << 16)).isEmpty) }
        #expect(framer.buffer.count <= 1 << 16)
    }

    @Test(arguments: ["Content-Length: -5", "Content-Length: abc", "Content-Length:", "Content-Type: x", "garbage"])
    func badHeaderIsAnsweredAndResyncs(header: String) {
        let input = "\(header)\r\n\r\n{\"lost\":true}" + lsp("{}")
        let events = bytewise(Array(input.utf8))
        #expect(events.count == 2)
        guard case .error(let error) = events.first else {
            Issue.record("expected an error first, got \(events)")
            return
        }
        #expect(error.code == .invalidRequest)
        #expect(events.last == .message(Array("{}".utf8)))
    }

    @Test func truncatedBodyAtEndOfInput() {
        let events = bytewise(Array("Content-Length: 10\r\n\r\n{\"a\"".utf8))
        #expect(events.count == 1)
        guard case .error(let error) = events.first else {
            Issue.record("expected a parse error for the cut-off body, got \(events)")
            return
        }
        #expect(error.code == .parseError)
    }

    @Test func ndjsonTooLongLineIsDiscarded() {
        let long = "{\"x\":\"" + String(repeating: "y", count: 200) + "\"}"
        let input = long + "\n{}\n"
        #expect(bytewise(Array(input.utf8), maxMessageSize: 64) == [.error(.messageTooLarge)] + messages("{}"))
        #expect(whole(Array(input.utf8), maxMessageSize: 64) == [.error(.messageTooLarge)] + messages("{}"))
    }

    @Test func outputFramingIsStrict() {
        let body = Array(#"{"é":1}"#.utf8)
        #expect(Framing.lsp.frame(body) == Array("Content-Length: 8\r\n\r\n".utf8) + body)
        #expect(Framing.ndjson.frame(body) == body + [0x0A])
    }

    @Test func encodedPayloadIsOneLine() {
        let message = Message.result(1, ["text": "a\nb/c"])
        let bytes = Payload.single(message).encoded()
        #expect(!bytes.contains(0x0A))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"id":1,"jsonrpc":"2.0","result":{"text":"a\nb/c"}}"#)
    }
}
