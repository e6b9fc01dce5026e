@testable import LinkPeekServer
import Logging
import Testing

/// One record is one line: every kind of newline in a message becomes a
/// space, and a message without one is written as it is.
struct LogLineTests {
    private func line(_ message: String) -> String {
        let event = LogEvent(
            level: .info, message: "\(message)", metadata: nil, source: nil, file: #fileID, function: #function,
            line: #line)
        return LogLine.line(event, label: "linkpeek.test", metadata: [:])
    }

    @Test(arguments: [
        ("a\nb", "a b"), ("a\r\nb", "a b"), ("a\rb", "a b"), ("a\u{0B}b\u{0C}c", "a b c"),
        ("a\u{85}b", "a b"), ("a\u{2028}b\u{2029}c", "a b c"),
    ])
    func newlinesBecomeSpaces(message: String, expected: String) {
        #expect(line(message) == "linkpeek.test info: \(expected)\n")
    }

    @Test(arguments: ["GET /v1/preview 200 host=example.com 0.2ms client=127.0.0.1", "é ü → ✓ 日本", "a\tb", ""])
    func aMessageWithoutNewlinesIsKept(message: String) {
        #expect(line(message) == "linkpeek.test info: \(message)\n")
    }

    /// Every character that is a newline is caught by the byte check that
    /// lets other messages through unchanged.
    @Test func theByteCheckMissesNoNewline() {
        for value in UInt32(0)...0x2FFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            if Character(scalar).isNewline { #expect(LogLine.mayHoldNewline(text), "U+\(String(value, radix: 16))") }
        }
    }
}
