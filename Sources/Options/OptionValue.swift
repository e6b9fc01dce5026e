import LinkPeekProtocol

/// One preference's value, whatever its key: what the generic merge, the
/// environment, the file reader and `config show` pass around.
public enum OptionValue: Sendable, Equatable {
    case bool(Bool)
    case number(Double)
    case string(String)
    case strings([String])

    /// As `config show` prints it and as the environment would spell it.
    public var text: String {
        switch self {
        case .bool(let value): String(value)
        case .number(let value): Int(exactly: value).map(String.init) ?? String(value)
        case .string(let value): value.isEmpty ? "\"\"" : value
        case .strings(let values): values.isEmpty ? "(none)" : values.joined(separator: ",")
        }
    }
}

/// What a key holds, and so what the file, the environment and the flags may give it.
public enum OptionKind: Sendable {
    case bool
    case number(NumberRange)
    /// Free text, checked by the key's `check`.
    case string
    /// One of these words.
    case choice([String])
    /// A list of strings (`a,b` in the environment).
    case strings
    /// true or false for all, or a list of these names to turn off.
    case switchOrNames([String])

    /// What is allowed, as the options table and problem sentences say it.
    public var allowed: String {
        switch self {
        case .bool: "true or false"
        case .number(let range):
            "\(range.integral ? "an integer" : "a number") from \(Self.format(range.minimum)) to \(Self.format(range.maximum))"
                + (range.unit.map { " (\($0))" } ?? "")
        case .string: "a string"
        case .choice(let words): words.map { "\"\($0)\"" }.joined(separator: ", ")
        case .strings: "a list of strings"
        case .switchOrNames(let names): "true, false or a list of: " + names.joined(separator: ", ")
        }
    }

    private static func format(_ value: Double) -> String {
        Int(exactly: value).map(String.init) ?? String(value)
    }
}
