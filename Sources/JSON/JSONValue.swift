/// Any JSON value, kept as parsed: the untyped form of params, results and
/// error data on the wire.
///
/// Integers and doubles are kept apart so that an id or a count written as
/// `3` comes back as `3`, not `3.0`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// A number as the client wrote it. Only the parser makes it, for an
    /// `id` member that is not a plain integer fitting `Int` (`1e2`, `1.0`,
    /// `9223372036854775808`), so that the id is echoed byte for byte.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    /// Pre-encoded JSON, written verbatim; only ever built for output (see `RawJSON`).
    case raw(RawJSON)
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .number(let text): try container.encode(Double(text) ?? 0)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        case .raw(let raw): try container.encode(try raw.parsed())
        }
    }
}

extension JSONValue {
    /// The member `key` of an object, or nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        switch self {
        case .object(let members): members[key]
        case .raw(let raw): (try? raw.parsed())?[key]
        default: nil
        }
    }

    /// A short name for the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double, .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        case .raw(let raw): (try? raw.parsed())?.typeName ?? "invalid JSON"
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
