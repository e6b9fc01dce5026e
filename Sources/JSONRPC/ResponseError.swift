/// The `error` member of a JSON-RPC response: a code, a plain sentence and
/// optional structured data.
public struct ResponseError: Error, Sendable, Hashable, Codable {
    public var code: ErrorCode
    public var message: String
    public var data: JSONValue?

    public init(code: ErrorCode, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }
}

extension ResponseError {
    public static func parseError(_ message: String) -> ResponseError {
        ResponseError(code: .parseError, message: message)
    }

    public static func invalidRequest(_ message: String) -> ResponseError {
        ResponseError(code: .invalidRequest, message: message)
    }

    public static func methodNotFound(_ method: String) -> ResponseError {
        ResponseError(code: .methodNotFound, message: "method not found: \(method)")
    }

    public static func invalidParams(_ message: String) -> ResponseError {
        ResponseError(code: .invalidParams, message: message)
    }

    public static func internalError(_ message: String) -> ResponseError {
        ResponseError(code: .internalError, message: message)
    }

    public static let cancelled = ResponseError(code: .requestCancelled, message: "Request cancelled.")

    /// The answer to a message whose body exceeded the size limit.
    public static let messageTooLarge = ResponseError(code: .invalidRequest, message: "message too large")
}
