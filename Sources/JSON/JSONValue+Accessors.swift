/// Typed views of one value, for readers of open-shaped JSON (JSON-LD
/// nodes, oEmbed answers) that take what is there and skip what is not:
/// each is nil when the value is of another kind.
extension JSONValue {
    /// The text of a string.
    public var stringValue: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The elements of an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The members of an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// A number of any of the three kinds the parser keeps apart (`.int`,
    /// `.double`, the `.number` text of an id) as a `Double`. Always finite:
    /// an id's text beyond `Double`'s range reads as the largest finite
    /// double of its sign, as the parser reads any other number.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .number(let text):
            guard let value = Double(text) else { return nil }
            return value.isFinite ? value : (value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude)
        default: return nil
        }
    }
}
