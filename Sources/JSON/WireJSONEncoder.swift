import FoundationEssentials

/// The `Encoder` behind `WireJSON`: every container writes into a `WireJSONNode`.
/// Strings, integers and booleans (what previews are made of) have their
/// own overloads, so that the usual field costs no dynamic cast. The coding
/// path is not tracked (always empty): nothing here reports one.
struct WireJSONEncoder: Encoder {
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

    /// Writes `value` into `node`: the plain scalars directly, anything else through its own `encode(to:)`.
    static func encode(_ value: some Encodable, into node: WireJSONNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let string as String:
            node.value = written(string)
        case let bool as Bool:
            node.value = written(bool)
        case let integer as any BinaryInteger:
            node.value = written(integer)
        case is Double, is Float, is Date, is Data, is URL, is Decimal:
            throw WireJSON.Unsupported()
        default:
            try value.encode(to: WireJSONEncoder(node: node, codingPath: codingPath))
        }
    }
}
