import JSONRPC
import LinkPeekProtocol

/// The one way a message's params are read: decoded into their typed
/// `RequestParams`, then checked against the type's rules and `also` (a rule
/// the server adds, such as the network settings'). Every failure is a
/// -32602 whose message names the field, e.g. "url must be a string",
/// "url is required", or the broken rule's sentence.
func decodeRequest<T: RequestParams>(
    _ type: T.Type, from params: JSONValue?, also extra: (T) -> String? = { _ in nil }
) -> Result<T, ResponseError> {
    decodeParams(type, from: params).flatMap { decoded in
        (decoded.validationError() ?? extra(decoded)).map { .failure(.invalidParams($0)) } ?? .success(decoded)
    }
}

extension Server {
    /// `decodeRequest` for request `id`: the params, or nil once the error is answered.
    func requestParams<T: RequestParams>(
        _ type: T.Type, _ rawParams: JSONValue?, _ id: RequestID, _ responder: Responder,
        also extra: (T) -> String? = { _ in nil }
    ) -> T? {
        switch decodeRequest(type, from: rawParams, also: extra) {
        case .success(let params): return params
        case .failure(let error):
            responder.respond(.error(id, error))
            return nil
        }
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
