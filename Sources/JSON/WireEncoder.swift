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
        if case .object = node.value {} else { node.value = .object([]) }
        return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.value {} else { node.value = .array([]) }
        return Unkeyed(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(node: node, codingPath: codingPath)
    }

    static func written(_ string: String) -> WireJSONNode.Value {
        var writer = JSONWriter(capacity: string.utf8.count + 2)
        writer.write(string: string)
        return .written(writer.bytes)
    }

    static func written(_ integer: some BinaryInteger) -> WireJSONNode.Value {
        WireJSONNode.written { $0.write(integer: integer) }
    }

    static func written(_ bool: Bool) -> WireJSONNode.Value { WireJSONNode.written { $0.write(bool: bool) } }

    static var null: WireJSONNode.Value { WireJSONNode.written { $0.writeNull() } }

    /// A finite double or float as Swift prints it, without a trailing `.0`
    /// (what `JSONEncoder` writes); NaN and the infinities are refused as
    /// `JSONEncoder` refuses them.
    static func written<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ number: F, codingPath: [any CodingKey]
    ) throws -> WireJSONNode.Value {
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, EncodingError.Context(
                codingPath: codingPath, debugDescription: "Unable to encode \(F.self).\(number) directly in JSON."))
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .written(Array(text.utf8))
    }

    /// Writes `value` into `node`: the plain scalars directly, anything else through its own `encode(to:)`.
    static func encode(_ value: some Encodable, into node: WireJSONNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let string as String:
            node.value = written(string)
        case let bool as Bool:
            node.value = written(bool)
        case let integer as any BinaryInteger:
            node.value = written(integer)
        case let double as Double:
            node.value = try written(double, codingPath: codingPath)
        case let float as Float:
            node.value = try written(float, codingPath: codingPath)
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
