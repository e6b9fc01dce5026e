/// Where a value in effect came from, highest precedence first.
public enum OptionSource: Sendable, Equatable, CustomStringConvertible {
    case flag
    /// `initializationOptions` or `workspace/didChangeConfiguration`.
    case client
    case environment
    case file(String)
    case `default`

    public var description: String {
        switch self {
        case .flag: "flag"
        case .client: "initializationOptions"
        case .environment: "environment"
        case .file(let path): path
        case .default: "default"
        }
    }
}

/// The layers of options a process has, highest precedence first (flag >
/// client > environment > file > default), merged generically by
/// `Options.merged(over:)`.
public struct OptionLayers: Sendable, Equatable {
    public private(set) var layers: [(source: OptionSource, options: Options)] = []

    public init() {}

    /// Adds or replaces `source`'s layer, kept in precedence order.
    public mutating func set(_ options: Options, from source: OptionSource) {
        layers.removeAll { Self.rank($0.source) == Self.rank(source) }
        layers.append((source, options))
        layers.sort { Self.rank($0.source) < Self.rank($1.source) }
    }

    /// The options in effect.
    public var merged: Options {
        layers.reversed().reduce(Options()) { lower, layer in layer.options.merged(over: lower) }
    }

    /// Every key, its value in effect and where it came from (`config show`,
    /// the daemon's `initialize` result).
    public func inEffect() -> [(key: OptionKey, value: String, source: OptionSource)] {
        OptionKey.all.map { key in
            for layer in layers {
                if let value = key.value(layer.options) { return (key, value.text, layer.source) }
            }
            return (key, key.defaultText, .default)
        }
    }

    /// The source of the `[[site]]` rules in effect, if any.
    public var sitesSource: OptionSource? { layers.first { $0.options.siteRules != nil }?.source }

    private static func rank(_ source: OptionSource) -> Int {
        switch source {
        case .flag: 0
        case .client: 1
        case .environment: 2
        case .file: 3
        case .default: 4
        }
    }

    public static func == (lhs: OptionLayers, rhs: OptionLayers) -> Bool {
        lhs.layers.count == rhs.layers.count
            && zip(lhs.layers, rhs.layers).allSatisfy { $0.source == $1.source && $0.options == $1.options }
    }
}

extension Options {
    /// The `LINKPEEK_*` variables of `environment` as a layer, and a
    /// sentence for each one that is not allowed (that key is left out).
    public static func fromEnvironment(_ environment: [String: String]) -> (options: Options, problems: [String]) {
        var options = Options()
        var problems: [String] = []
        for key in OptionKey.all {
            guard let text = environment[key.environmentName] else { continue }
            let value: OptionValue?
            switch key.kind {
            case .bool: value = ["1", "true", "yes"].contains(text) ? .bool(true) : ["0", "false", "no"].contains(text) ? .bool(false) : nil
            case .number: value = Double(text).map(OptionValue.number)
            case .string, .choice: value = .string(text)
            case .strings: value = .strings(text.split(separator: ",").map(String.init))
            case .switchOrNames:
                value = ["1", "true", "yes"].contains(text) ? .bool(true) : ["0", "false", "no"].contains(text) ? .bool(false)
                    : .strings(text.split(separator: ",").map(String.init))
            }
            if let value, key.problem(value) == nil {
                key.assign(&options, value)
            } else {
                let reason = value.flatMap(key.problem) ?? "must be \(key.kind.allowed)"
                problems.append("\(key.environmentName): \(key.name) \(reason).")
            }
        }
        return (options, problems)
    }
}
