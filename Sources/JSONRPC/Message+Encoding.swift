import Foundation

extension Message {
    /// The message as a JSON object.
    public var jsonValue: JSONValue {
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

extension ResponseError {
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["code": .int(code.rawValue), "message": .string(message)]
        object["data"] = data
        return .object(object)
    }
}

extension Payload {
    public var jsonValue: JSONValue {
        switch self {
        case .single(let message): message.jsonValue
        case .batch(let messages): .array(messages.map(\.jsonValue))
        }
    }

    /// The payload serialised as one line of UTF-8 JSON: no newline inside
    /// (JSON escapes them in strings), slashes unescaped, keys sorted so that
    /// output is stable.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(jsonValue))
        } catch {
            // Only a non-finite double can fail; answer with an error rather than nothing.
            let fallback = #"{"error":{"code":-32603,"message":"Internal error: unencodable message"},"id":null,"jsonrpc":"2.0"}"#
            return Array(fallback.utf8)
        }
    }
}
