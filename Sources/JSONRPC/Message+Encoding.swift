extension ResponseError {
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["code": .int(code.rawValue), "message": .string(message)]
        object["data"] = data
        return .object(object)
    }
}

extension Payload {
    /// The payload serialised as one line of UTF-8 JSON: no newline inside
    /// (JSON escapes them in strings), slashes unescaped, keys sorted so that
    /// output is stable. The envelope is written member by member (in sorted
    /// order) rather than built as a dictionary first: it is on every message.
    public func encoded() -> [UInt8] {
        var writer = JSONWriter()
        do {
            switch self {
            case .single(let message):
                try writer.write(message)
            case .batch(let messages):
                writer.append(byte: UInt8(ascii: "["))
                for (index, message) in messages.enumerated() {
                    if index > 0 { writer.append(byte: UInt8(ascii: ",")) }
                    try writer.write(message)
                }
                writer.append(byte: UInt8(ascii: "]"))
            }
            return writer.bytes
        } catch {
            // Only a non-finite double can fail; answer with an error rather than nothing.
            let fallback = #"{"error":{"code":-32603,"message":"Internal error: unencodable message"},"id":null,"jsonrpc":"2.0"}"#
            return Array(fallback.utf8)
        }
    }
}

extension JSONWriter {
    /// One message, its members in sorted order: error, id, jsonrpc, method, params, result.
    mutating func write(_ message: Message) throws(NonFiniteNumber) {
        switch message {
        case .request(let id, let method, let params):
            try member("{", "id", id.jsonValue)
            try member(",", "jsonrpc", "2.0")
            try member(",", "method", .string(method))
            if let params { try member(",", "params", params) }
        case .notification(let method, let params):
            try member("{", "jsonrpc", "2.0")
            try member(",", "method", .string(method))
            if let params { try member(",", "params", params) }
        case .response(let id, .success(let value)):
            try member("{", "id", id?.jsonValue ?? .null)
            try member(",", "jsonrpc", "2.0")
            try member(",", "result", value)
        case .response(let id, .failure(let error)):
            try member("{", "error", error.jsonValue)
            try member(",", "id", id?.jsonValue ?? .null)
            try member(",", "jsonrpc", "2.0")
        }
        append(byte: UInt8(ascii: "}"))
    }

    /// `separator` (`{` or `,`), then `"key":value`.
    private mutating func member(_ separator: Unicode.Scalar, _ key: String, _ value: JSONValue) throws(NonFiniteNumber) {
        append(byte: UInt8(ascii: separator))
        write(string: key)
        append(byte: UInt8(ascii: ":"))
        try write(value)
    }
}
