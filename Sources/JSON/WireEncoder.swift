import FoundationEssentials

/// The `Encoder` behind `WireJSON`: every container writes into a `WireJSONNode`.
/// Strings, integers and booleans (what previews are made of) have their
/// own overloads, so that the usual field costs no dynamic cast. The coding
/// path is not tracked (always empty): nothing here reports one.
struct WireEncoder: Encoder {
    let node: WireJSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return Unkeyed(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(node: node, codingPath: codingPath)
    }

    static func write(_ string: String, into node: WireJSONNode) { node.set { $0.write(string: string) } }

    static func write(_ integer: some BinaryInteger, into node: WireJSONNode) { node.set { $0.write(integer: integer) } }

    static func write(_ bool: Bool, into node: WireJSONNode) { node.set { $0.write(bool: bool) } }

    static func writeNull(into node: WireJSONNode) { node.set { $0.writeNull() } }

    /// A finite double or float as Swift prints it, without a trailing `.0`
    /// (what `JSONEncoder` writes); NaN and the infinities are refused as
    /// `JSONEncoder` refuses them.
    static func write<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ number: F, into node: WireJSONNode, codingPath: [any CodingKey]
    ) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, EncodingError.Context(
                codingPath: codingPath, debugDescription: "Unable to encode \(F.self).\(number) directly in JSON."))
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        node.set { writer in
            for byte in text.utf8 { writer.append(byte: byte) }
        }
    }

    /// Writes `value` into `node`: the plain scalars directly, anything else through its own `encode(to:)`.
    static func encode(_ value: some Encodable, into node: WireJSONNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let string as String:
            write(string, into: node)
        case let bool as Bool:
            write(bool, into: node)
        case let integer as any BinaryInteger:
            write(integer, into: node)
        case let double as Double:
            try write(double, into: node, codingPath: codingPath)
        case let float as Float:
            try write(float, into: node, codingPath: codingPath)
        case is Data, is URL, is Decimal:
            // Their own `Codable` spells them otherwise than `JSONEncoder` does
            // (an array of bytes, a keyed object); nothing linkpeek writes holds one.
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: codingPath, debugDescription: "\(type(of: value)) is not written by linkpeek's JSON."))
        default:
            // `Date` among them: its own `Codable` is a double of seconds since
            // 2001, what `JSONEncoder`'s default strategy writes.
            try value.encode(to: WireEncoder(node: node, codingPath: codingPath))
        }
    }
}
