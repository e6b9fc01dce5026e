import FoundationEssentials

/// The decode-failure policy, exhaustive (after sourcekit-lsp's
/// `decodeJSONRPCMessage`). A request whose id can be recovered always gets
/// an answer; everything else that is wrong is answered with `"id": null`.
///
/// | input | result |
/// | --- | --- |
/// | not UTF-8, not JSON | `.invalid(nil, -32700)` |
/// | nested deeper than 512 | `.invalid(nil, -32600)` |
/// | JSON, not an object | `.invalid(nil, -32600)` |
/// | no `"jsonrpc": "2.0"` | `.invalid(id?, -32600)` |
/// | `method` not a string | `.invalid(id?, -32600)` |
/// | `method` with an `id` that is not a number or string | `.invalid(nil, -32600)` |
/// | `params` not an object, array or null | `.invalid(id?, -32600)` |
/// | `method` and `id` | `.request` (an absent or null `params` is nil) |
/// | `method`, no `id` | `.notification` (the receiver ignores unknown ones) |
/// | no `method`, with `id`, `result` or `error` | `.response` (neither result nor error reads as a null result) |
/// | none of these | `.invalid(nil, -32600)` |
/// | `[]` | `.single(.invalid(nil, -32600))` |
/// | `[a, b, …]` | `.batch` of each element decoded by these rules |
extension Message {
    /// Decodes one framed body.
    public static func decode(_ body: some Collection<UInt8>) -> Incoming {
        guard String(validating: body, as: UTF8.self) != nil else {
            return .single(.invalid(id: nil, error: .parseError("Parse error: the message is not valid UTF-8")))
        }
        let parsed = body.withContiguousStorageIfAvailable(JSONParser.parse)
            ?? Array(body).withUnsafeBufferPointer(JSONParser.parse)
        let value: JSONValue
        switch parsed {
        case .success(let parsedValue):
            value = parsedValue
        case .failure(.syntax(let offset)):
            return .single(.invalid(id: nil, error: .parseError("Parse error: the message is not valid JSON (at byte \(offset))")))
        case .failure(.tooDeep):
            return .single(.invalid(id: nil, error: .invalidRequest(
                "Invalid request: arrays and objects nested deeper than \(JSONParser.maximumDepth) levels")))
        }
        if case .array(let elements) = value {
            if elements.isEmpty {
                return .single(.invalid(id: nil, error: .invalidRequest("Invalid request: empty batch")))
            }
            return .batch(elements.map(decode(value:)))
        }
        return .single(decode(value: value))
    }

    /// Decodes one message already parsed as JSON, by the policy above.
    public static func decode(value: JSONValue) -> Decoded {
        guard case .object(let object) = value else {
            return .invalid(id: nil, error: .invalidRequest("Invalid request: expected an object, found \(value.typeName)"))
        }
        let id = object["id"].flatMap(RequestID.init)
        guard object["jsonrpc"] == .string("2.0") else {
            return .invalid(id: id, error: .invalidRequest("Invalid request: jsonrpc must be \"2.0\""))
        }
        if let methodValue = object["method"] {
            guard case .string(let method) = methodValue else {
                return .invalid(id: id, error: .invalidRequest("Invalid request: method must be a string"))
            }
            let params: JSONValue?
            switch object["params"] {
            case nil, .null?: params = nil
            case .object?, .array?: params = object["params"]
            default:
                return .invalid(id: id, error: .invalidRequest("Invalid request: params must be an object or an array"))
            }
            guard let idValue = object["id"] else {
                return .message(.notification(method: method, params: params))
            }
            guard let id = RequestID(idValue) else {
                return .invalid(id: nil, error: .invalidRequest("Invalid request: id must be an integer or a string"))
            }
            return .message(.request(id: id, method: method, params: params))
        }
        if object["id"] != nil || object["result"] != nil || object["error"] != nil {
            return .message(.response(id: id, result: responseResult(object)))
        }
        return .invalid(id: nil, error: .invalidRequest("Invalid request: missing method"))
    }

    private static func responseResult(_ object: [String: JSONValue]) -> Result<JSONValue, ResponseError> {
        if let error = object["error"], case .object = error {
            let code = if case .int(let code)? = error["code"] { code } else { ErrorCode.unknownErrorCode.rawValue }
            let message = if case .string(let message)? = error["message"] { message } else { "" }
            return .failure(ResponseError(code: ErrorCode(rawValue: code), message: message, data: error["data"]))
        }
        return .success(object["result"] ?? .null)
    }
}
