/// A Redis reply as Swift values: hiredis's `redisReply` tree is copied into
/// this and freed at once, so no C type leaves this target.
public enum RedisReply: Sendable, Equatable {
    case string([UInt8])
    case status(String)
    /// The server refused the command (`-ERR …`); the connection is still good.
    case error(String)
    case integer(Int)
    case array([RedisReply])
    case null

    public var integer: Int? {
        if case .integer(let value) = self { return value }
        return nil
    }

    public var bytes: [UInt8]? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var array: [RedisReply]? {
        if case .array(let value) = self { return value }
        return nil
    }
}

/// Why a call to Redis did not give a reply. After any of these the
/// connection is closed: hiredis leaves a context unusable after an I/O or
/// protocol error, and a call that timed out may still have its reply on the way.
public struct RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// hiredis could not be loaded.
        case unavailable
        /// No connection could be made (or AUTH / SELECT were refused).
        case connect
        /// The connection broke.
        case io
        /// A reply took longer than the call's time limit.
        case timedOut
        /// The server's bytes are not RESP, or the reply is not what the command gives.
        case protocolError
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
