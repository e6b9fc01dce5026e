import JSONRPC
import LinkPeekProtocol

/// The one way a message's params are read: decoded into their typed
/// `RequestParams`, then checked against the type's rules. Every failure is
/// a -32602 whose message names the field, e.g. "url must be a string",
/// "url is required", or the broken rule's sentence.
func decodeRequest<T: RequestParams>(_ type: T.Type, from params: JSONValue?) -> Result<T, ResponseError> {
    decodeParams(type, from: params).flatMap { decoded in
        decoded.validationError().map { .failure(.invalidParams($0)) } ?? .success(decoded)
    }
}

/// Params into their Codable type, read straight from the parsed tree
/// (`JSONValueDecoder`). Absent or `null` params read as `{}`, so a missing
/// required field is reported by name.
private func decodeParams<T: Decodable>(_ type: T.Type, from params: JSONValue?) -> Result<T, ResponseError> {
    let value = params ?? .object([:])
    guard case .object = value else {
        return .failure(.invalidParams("params must be an object"))
    }
    do {
        return .success(try value.decode(type))
    } catch let error as DecodingError {
        return .failure(.invalidParams(describe(error)))
    } catch {
        return .failure(.invalidParams("invalid params"))
    }
}

private func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, let context):
        return "\(path(context.codingPath + [key])) is required"
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
        return "\(path(context.codingPath)) must be \(expectation(type))"
    case .dataCorrupted(let context):
        return "\(path(context.codingPath)) is invalid"
    @unknown default:
        return "invalid params"
    }
}

private func path(_ keys: [any CodingKey]) -> String {
    let parts = keys.map { key in key.intValue.map { "[\($0)]" } ?? key.stringValue }
    return parts.isEmpty ? "params" : parts.joined(separator: ".").replacing(".[", with: "[")
}

private func expectation(_ type: Any.Type) -> String {
    if let described = type as? any ParamValueDescribing.Type { return described.expectedDescription }
    switch ObjectIdentifier(type) {
    case ObjectIdentifier(String.self): return "a string"
    case ObjectIdentifier(Bool.self): return "a boolean"
    case ObjectIdentifier(Int.self): return "an integer"
    case ObjectIdentifier(Double.self), ObjectIdentifier(Float.self): return "a number"
    case ObjectIdentifier([Any].self): return "an array"
    default: return "an object"
    }
}
