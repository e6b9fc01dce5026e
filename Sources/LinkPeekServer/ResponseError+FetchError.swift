import JSONRPC
import LinkPeek
import LinkPeekProtocol

/// The codes of fetch failures. -32002 is LSP's `serverNotInitialized` and
/// -32001 its `UnknownErrorCode` (also what a client's decoder assumes for an
/// error without a code), so provider reuse takes -32003 and a timeout -32005.
extension ErrorCode {
    /// `FetchError.Kind.failed`; `data.reason` says why.
    public static let fetchFailed = ErrorCode(rawValue: -32000)
    /// `FetchError.Kind.timedOut`.
    public static let fetchTimedOut = ErrorCode(rawValue: -32005)
    /// `FetchError.Kind.providerReused`: the one-shot rule.
    public static let providerReused = ErrorCode(rawValue: -32003)
    /// `FetchError.Kind.unknown`.
    public static let fetchUnknown = ErrorCode(rawValue: -32004)
}

extension ResponseError {
    /// The one conversion from a domain error to a wire error: the code by
    /// kind, the plain sentence as message, and `data: {kind, reason?, status?, wall?}`.
    public init(_ error: FetchError) {
        let code: ErrorCode =
            switch error.kind {
            case .cancelled: .requestCancelled
            case .timedOut: .fetchTimedOut
            case .failed: .fetchFailed
            case .providerReused: .providerReused
            case .unknown: .fetchUnknown
            }
        self.init(code: code, message: error.message, data: try? JSONValue(encoding: FetchErrorData(error)))
    }
}

extension FetchErrorData {
    /// The one spelling of a fetch failure as JSON: the daemon's error
    /// `data`, and with the message beside it the CLI's error line.
    public init(_ error: FetchError) {
        self.init(
            kind: error.kind.rawValue, reason: error.reason?.rawValue, status: error.status,
            fromCache: error.fromCache ? true : nil, stale: error.stale ? true : nil,
            wall: error.wall?.rawValue, retryAfter: error.retryAfter)
    }
}
