import HTTPTypes
import Hummingbird
import JSON
import LinkPeek
import LinkPeekProtocol

/// The service's responses: JSON bodies, and errors in one shape —
/// `{"error": {"kind", "reason", "message", …}}` with the protocol's reason
/// and sentence — at the HTTP status that fits (`status(for:)`).
enum Reply {
    static let xCache = HTTPField.Name("X-Cache")!

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// An error of the service itself (no fetch behind it).
    static func problem(_ status: HTTPResponse.Status, reason: String, _ message: String) -> Response {
        var writer = JSONWriter(capacity: 128 + message.utf8.count)
        // A tree of strings only: no number can fail to write.
        try? writer.write(.object([
            "error": .object(["kind": .string("failed"), "reason": .string(reason), "message": .string(message)]),
        ]))
        return json(writer.bytes, status: status)
    }

    /// 429 or 503 with `Retry-After`.
    /// 503 when every slot and the queue are taken (`AdmissionGate`).
    static var overloaded: Response {
        retryLater(.serviceUnavailable, seconds: 1, reason: "overloaded",
            "The service is at its limit of requests at once; try again shortly.")
    }

    static func retryLater(_ status: HTTPResponse.Status, seconds: Int, reason: String, _ message: String) -> Response {
        var response = problem(status, reason: reason, message)
        response.headers[.retryAfter] = String(max(1, seconds))
        return response
    }

    /// A bad parameter: 400 with `reason: "invalidParams"`.
    static func badParameter(_ message: String) -> Response {
        problem(.badRequest, reason: "invalidParams", message + ".")
    }

    /// The engine's failure at its status, with the daemon's error data and sentence.
    static func failure(_ error: FetchError) -> Response {
        let data = FetchErrorData(
            kind: error.kind.rawValue, reason: error.reason?.rawValue, status: error.status,
            fromCache: error.fromCache ? true : nil, stale: error.stale ? true : nil,
            wall: error.wall?.rawValue, retryAfter: error.retryAfter)
        var members: [String: JSONValue] = ["kind": .string(data.kind), "message": .string(error.message)]
        if let reason = data.reason { members["reason"] = .string(reason) }
        if let status = data.status { members["status"] = .int(status) }
        if let fromCache = data.fromCache { members["fromCache"] = .bool(fromCache) }
        if let wall = data.wall { members["wall"] = .string(wall) }
        if let retryAfter = data.retryAfter { members["retryAfter"] = .int(retryAfter) }
        var writer = JSONWriter(capacity: 256)
        try? writer.write(.object(["error": .object(members)]))
        var response = json(writer.bytes, status: status(for: error))
        if let retryAfter = error.retryAfter, error.reason == .rateLimited {
            response.headers[.retryAfter] = String(max(1, retryAfter))
        }
        return response
    }

    /// The one mapping from a fetch's failure to an HTTP status.
    static func status(for error: FetchError) -> HTTPResponse.Status {
        switch error.kind {
        case .timedOut: return .gatewayTimeout
        case .cancelled: return .serviceUnavailable
        case .unknown, .providerReused: return .internalServerError
        case .failed: break
        }
        switch error.reason {
        case .invalidURL?, .unsupportedScheme?: return .badRequest
        case .blockedAddress?, .fetchRefused?: return .forbidden
        case .rateLimited?: return .tooManyRequests
        case .notCached?: return .notFound
        case .httpStatus? where error.status == 404: return .notFound
        case .httpStatus? where error.status == 410: return .gone
        default: return .badGateway
        }
    }
}

/// A request refused before any work, as the response that says why.
struct Refusal: Error {
    let response: Response
}
