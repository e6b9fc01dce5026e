/// The one JSON writer: compact UTF-8, byte for byte what `JSONEncoder`
/// with `OutputFormatting.wire` writes — object keys in UTF-8 byte order,
/// `"`, `\` and control characters escaped (the short forms where JSON has
/// them, else `\u00xx`), everything else raw, doubles as Swift prints them
/// without a trailing `.0`. The daemon's messages (`JSONValue`) and the
/// `Encodable` values `WireJSON` encodes are both written here.
///
/// Hand-written because every message goes through it: `JSONEncoder` walks
/// the `Encodable` containers and boxes each value, several times the cost of
/// this loop on a typical response (profiles of `getCached` showed the
/// message encoder at a quarter of the daemon's time).
public struct JSONWriter {
    /// A double that JSON cannot spell (NaN, infinity) was met.
    public struct NonFiniteNumber: Error {}

    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func write(_ value: JSONValue) throws(NonFiniteNumber) {
        switch value {
        case .null: writeNull()
        case .bool(let value): write(bool: value)
        case .int(let value): write(integer: value)
        case .double(let value): try write(double: value)
        case .number(let text): append(text)
        case .string(let value): write(string: value)
        case .array(let elements):
            try writeArray(elements) { (writer, element) throws(NonFiniteNumber) in try writer.write(element) }
        case .object(let members):
            try writeObject(Array(members)) { (writer, member) throws(NonFiniteNumber) in try writer.write(member) }
        case .raw(let raw):
            bytes.append(contentsOf: raw.bytes)
        }
    }

    /// `[`, the elements separated by commas, each written by `element`, `]`.
    public mutating func writeArray<Element, Failure: Error>(
        _ elements: [Element], _ element: (inout JSONWriter, Element) throws(Failure) -> Void
    ) throws(Failure) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try element(&self, value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// `{`, the members in UTF-8 order of their keys, each value written by `value`, `}`.
    /// Keys are expected to be distinct (a dictionary's, or synthesized `Codable`'s).
    public mutating func writeObject<Value, Failure: Error>(
        _ members: [(key: String, value: Value)], _ value: (inout JSONWriter, Value) throws(Failure) -> Void
    ) throws(Failure) {
        bytes.append(UInt8(ascii: "{"))
        let ordered = members.sorted { Self.utf8Precedes($0.key, $1.key) }
        for (index, member) in ordered.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(string: member.key)
            bytes.append(UInt8(ascii: ":"))
            try value(&self, member.value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Whether `a`'s UTF-8 comes before `b`'s, byte by byte (a prefix
    /// first): the order of an object's keys. On the buffers: the generic
    /// `utf8.lexicographicallyPrecedes` cost some hundred instructions a byte.
    public static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                for index in 0..<min(x.count, y.count) where x[index] != y[index] { return x[index] < y[index] }
                return x.count < y.count
            }
        }
    }

    public mutating func write(string: String) {
        JSONStringLiteral.append(string, to: &bytes)
    }

    public mutating func write(integer: some BinaryInteger) {
        append(String(integer))
    }

    public mutating func write(bool: Bool) {
        append(bool ? "true" : "false")
    }

    public mutating func writeNull() {
        append("null")
    }

    public mutating func write(double: Double) throws(NonFiniteNumber) {
        guard double.isFinite else { throw NonFiniteNumber() }
        var text = double.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }

    /// Bytes that are already JSON (a value written earlier), as they are.
    public mutating func append(json: [UInt8]) {
        bytes.append(contentsOf: json)
    }

    public mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// A fixed piece of JSON (a member's `"key":`, a literal), as it is.
    public mutating func append(json text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A member's key and colon, after a comma unless it is the first of
    /// its object (`first` says so, and is cleared): for writers that give
    /// their members in UTF-8 order of their keys themselves.
    public mutating func member(_ key: StaticString, first: inout Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }
}
