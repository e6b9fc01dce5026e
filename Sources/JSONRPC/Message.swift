// Contributor note (JSONRPC): the wire, and nothing about linkpeek. Bytes
// become bodies in `MessageFramer`, bodies become `Incoming` in
// `Message.decode` (its doc comment is the decode-failure policy), and
// `Connection` owns the two threads and the bounded output queue. Test the
// framer and the decoder on literal bytes (tier 1, `JSONRPCTests`); test the
// connection over real pipes with a timeout on every wait.

/// One JSON-RPC 2.0 message, either direction.
public enum Message: Sendable, Hashable {
    /// A call that expects exactly one response with the same id.
    case request(id: RequestID, method: String, params: JSONValue?)
    /// A call without an id; nobody answers it.
    case notification(method: String, params: JSONValue?)
    /// The answer to a request. `id` is nil only for errors about a message
    /// whose id could not be read (it is written as `"id": null`).
    case response(id: RequestID?, result: Result<JSONValue, ResponseError>)
}

/// What one framed body holds on the way out: a message, or the answers to a
/// batch, written together as one JSON array.
public enum Payload: Sendable, Hashable {
    case single(Message)
    case batch([Message])
}

/// What one framed body decodes to on the way in.
public enum Incoming: Sendable, Hashable {
    case single(Decoded)
    /// A non-empty JSON array; its answers go back as one array.
    case batch([Decoded])
}

/// One decoded element: a message to handle, or a malformed one to answer
/// with an error (see `Message.decode(_:)` for the policy).
public enum Decoded: Sendable, Hashable {
    case message(Message)
    /// Answer with `error` and `id` (nil when it could not be recovered).
    case invalid(id: RequestID?, error: ResponseError)
}

extension Message {
    /// A success response.
    public static func result(_ id: RequestID, _ value: JSONValue) -> Message {
        .response(id: id, result: .success(value))
    }

    /// An error response.
    public static func error(_ id: RequestID?, _ error: ResponseError) -> Message {
        .response(id: id, result: .failure(error))
    }

    public var method: String? {
        switch self {
        case .request(_, let method, _), .notification(let method, _): method
        case .response: nil
        }
    }
}
