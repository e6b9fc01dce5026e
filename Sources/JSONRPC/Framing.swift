/// How messages are delimited on a stream.
public enum Framing: Sendable, Hashable {
    /// LSP base protocol: `Content-Length: N\r\n\r\n` then N bytes of JSON.
    case lsp
    /// Newline-delimited JSON: one message per line.
    case ndjson

    /// The framing a stream announces with its first non-whitespace byte:
    /// `{` or `[` starts a JSON text, so NDJSON; anything else is a header.
    public init(firstByte: UInt8) {
        self = (firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[")) ? .ndjson : .lsp
    }

    /// `body` framed for writing. The output is strict: exactly one
    /// `Content-Length` header (N in bytes) and no other, or one line.
    public func frame(_ body: [UInt8]) -> [UInt8] {
        switch self {
        case .lsp:
            var out = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
            out.append(contentsOf: body)
            return out
        case .ndjson:
            // Encoded JSON never contains a raw newline, so the line is the message.
            var out = body
            out.append(UInt8(ascii: "\n"))
            return out
        }
    }
}

/// What the framer produces from the input stream.
public enum FramerEvent: Sendable, Hashable {
    /// One complete message body (not yet decoded).
    case message([UInt8])
    /// A framing error to answer with `"id": null`; the stream is back in sync.
    case error(ResponseError)
}
