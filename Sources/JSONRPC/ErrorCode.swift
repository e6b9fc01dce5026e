/// A JSON-RPC error code. An open set: a struct with named values rather than
/// a closed enum, so a code this build does not know still round-trips.
public struct ErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    public var rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { String(rawValue) }

    // JSON-RPC 2.0.
    public static let parseError = ErrorCode(rawValue: -32700)
    public static let invalidRequest = ErrorCode(rawValue: -32600)
    public static let methodNotFound = ErrorCode(rawValue: -32601)
    public static let invalidParams = ErrorCode(rawValue: -32602)
    public static let internalError = ErrorCode(rawValue: -32603)

    // LSP.
    public static let serverNotInitialized = ErrorCode(rawValue: -32002)
    public static let unknownErrorCode = ErrorCode(rawValue: -32001)
    public static let requestCancelled = ErrorCode(rawValue: -32800)
    public static let contentModified = ErrorCode(rawValue: -32801)
    public static let requestFailed = ErrorCode(rawValue: -32803)
}
