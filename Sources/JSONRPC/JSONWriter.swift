import JSONText

/// Writes a `JSONValue` as compact UTF-8 JSON, byte for byte what
/// `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes:
/// object keys in UTF-8 byte order, `"`, `\` and control characters escaped
/// (the short forms where JSON has them, else `\u00xx`), everything else
/// raw, doubles as Swift prints them without a trailing `.0`.
///
/// Hand-written because every message goes through it: `JSONEncoder` walks
/// the `Encodable` containers and boxes each value, several times the cost of
/// this loop on a typical response (profiles of `getCached` showed the
/// message encoder at a quarter of the daemon's time).
struct JSONWriter {
    /// A double that JSON cannot spell (NaN, infinity) was met.
    struct NonFiniteNumber: Error {}

    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ value: JSONValue) throws(NonFiniteNumber) {
        switch value {
        case .null: append("null")
        case .bool(let value): append(value ? "true" : "false")
        case .int(let value): append(String(value))
        case .double(let value):
            guard value.isFinite else { throw NonFiniteNumber() }
            var text = value.description
            if text.hasSuffix(".0") { text.removeLast(2) }
            append(text)
        case .number(let text): append(text)
        case .string(let value): write(string: value)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            try write(object: members)
        case .raw(let raw):
            bytes.append(contentsOf: raw.bytes)
        }
    }

    private mutating func write(object members: [String: JSONValue]) throws(NonFiniteNumber) {
        bytes.append(UInt8(ascii: "{"))
        let keys = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for (index, key) in keys.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(string: key)
            bytes.append(UInt8(ascii: ":"))
            // The key came from the dictionary, so the lookup cannot miss.
            try write(members[key] ?? .null)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func write(string: String) {
        JSONStringLiteral.append(string, to: &bytes)
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
