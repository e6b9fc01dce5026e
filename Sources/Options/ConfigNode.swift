import TOMLKit

/// A configuration file's TOML document as the TOML parser (toml++, through
/// TOMLKit) read it, held as plain values: what `TableReader` walks, and
/// what `ConfigCache` stores so that a start whose file has not changed
/// needs no parse. Only as deep as `maxDepth`: no key of linkpeek is deeper
/// (a `[[site]]` rule's `headers` value is at depth 4), and what lies below
/// it is `.other`, which the reader treats as any value of the wrong type.
enum ConfigNode: Sendable, Equatable {
    case table(ConfigTable)
    case array([ConfigNode])
    case string(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    /// A date, a time, or anything below `maxDepth`: no key takes one.
    case other

    static let maxDepth = 8

    /// `value` read, its tables and arrays down to `maxDepth`.
    init(_ value: TOMLValue, depth: Int) {
        guard depth < Self.maxDepth else {
            self = .other
            return
        }
        switch value.type {
        case .table: self = value.table.map { .table(ConfigTable($0, depth: depth + 1)) } ?? .other
        case .array:
            guard let array = value.array else {
                self = .other
                return
            }
            let count = array.count
            var items: [ConfigNode] = []
            items.reserveCapacity(count)
            for index in 0..<count { items.append(ConfigNode(array[index].tomlValue, depth: depth + 1)) }
            self = .array(items)
        case .string: self = value.string.map(ConfigNode.string) ?? .other
        case .int: self = value.int.map { .int(Int64($0)) } ?? .other
        case .double: self = value.double.map(ConfigNode.double) ?? .other
        case .bool: self = value.bool.map(ConfigNode.bool) ?? .other
        default: self = .other
        }
    }

    var table: ConfigTable? {
        if case .table(let table) = self { table } else { nil }
    }

    var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    var bool: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }
}

/// A TOML table: its keys and values in the parser's order (by name).
struct ConfigTable: Sendable, Equatable {
    var keys: [String] = []
    var values: [ConfigNode] = []

    /// `table` read: its keys and values from one call each (`table[key]`
    /// would cost a C string, a search and a boxed value per key).
    init(_ table: TOMLTable, depth: Int = 0) {
        keys = table.keys
        let values = table.values
        self.values.reserveCapacity(values.count)
        for value in values { self.values.append(ConfigNode(value, depth: depth)) }
    }

    /// The document toml++ reads from `text` (which `ConfigText` must have passed).
    init(toml text: String) throws {
        self.init(try TOMLTable(string: text))
    }

    init(keys: [String], values: [ConfigNode]) {
        self.keys = keys
        self.values = values
    }

    var entries: Zip2Sequence<[String], [ConfigNode]> { zip(keys, values) }
}
