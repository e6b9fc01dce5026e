/// A JSON value that is an integer or a string: provider ids, progress
/// tokens, request ids in params. The integer `1` and the string `"1"` differ.
public enum IntegerOrString: Sendable, Hashable, Codable, CustomStringConvertible {
    case integer(Int)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else {
            throw DecodingError.typeMismatch(
                IntegerOrString.self,
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "Expected a string or an integer"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    public var description: String {
        switch self {
        case .integer(let value): String(value)
        case .string(let value): "\"\(value)\""
        }
    }
}

/// Names a fetch for the one-shot rule and for `cancel`.
public typealias ProviderID = IntegerOrString

/// Names a progress stream (`workDoneToken`, `partialResultToken`).
public typealias ProgressToken = IntegerOrString

/// A params type whose decoding errors should name what was expected in
/// words, e.g. "a string or an integer".
public protocol ParamValueDescribing {
    static var expectedDescription: String { get }
}

extension IntegerOrString: ParamValueDescribing {
    public static var expectedDescription: String { "a string or an integer" }
}
