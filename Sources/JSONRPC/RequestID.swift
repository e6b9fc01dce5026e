/// A JSON-RPC request id: a number or a string. `0` and `""` are valid ids.
///
/// The integer `1` and the string `"1"` are different ids, as JSON-RPC says.
/// A number that is not a plain integer fitting `Int` (`1e2`, `1.5`,
/// `-9223372036854775809`) is kept as its literal text and echoed exactly:
/// `1e2` and `100` are different ids.
public enum RequestID: Sendable, Hashable, Codable, CustomStringConvertible {
    case int(Int)
    case string(String)
    /// A number's literal text, as the client wrote it.
    case number(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .number(let text): try container.encode(Double(text) ?? 0)
        }
    }

    /// The id a JSON value spells, or nil when it is neither an integer nor a string.
    public init?(_ value: JSONValue) {
        switch value {
        case .int(let value): self = .int(value)
        case .string(let value): self = .string(value)
        case .number(let text): self = .number(text)
        case .double(let value): self = .number(String(value))
        default: return nil
        }
    }

    public var jsonValue: JSONValue {
        switch self {
        case .int(let value): .int(value)
        case .string(let value): .string(value)
        case .number(let text): .number(text)
        }
    }

    public var description: String {
        switch self {
        case .int(let value): String(value)
        case .string(let value): "\"\(value)\""
        case .number(let text): text
        }
    }
}

extension RequestID: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(stringLiteral value: String) { self = .string(value) }
}
