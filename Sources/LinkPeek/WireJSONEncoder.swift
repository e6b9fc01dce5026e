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
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count + 2)
        WireJSONNode.write(string: string, to: &bytes)
        return .written(bytes)
    }

    static func written(_ integer: Int) -> WireJSONNode.Value { .written(Array(String(integer).utf8)) }

    static func written(_ bool: Bool) -> WireJSONNode.Value { .written(Array((bool ? "true" : "false").utf8)) }

    /// Writes `value` into `node`: the plain scalars directly, anything else through its own `encode(to:)`.
    static func encode(_ value: some Encodable, into node: WireJSONNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let string as String:
            node.value = written(string)
        case let bool as Bool:
            node.value = written(bool)
        case let integer as any BinaryInteger:
            node.value = .written(Array(String(describing: integer).utf8))
        case is Double, is Float, is Date, is Data, is URL, is Decimal:
            throw WireJSON.Unsupported()
        default:
            try value.encode(to: WireJSONEncoder(node: node, codingPath: codingPath))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: WireJSONNode
        let codingPath: [any CodingKey]

        private func add(_ key: Key) -> WireJSONNode { add(named: key.stringValue) }

        private func add(named name: String) -> WireJSONNode {
            let child = WireJSONNode()
            if case .object(var members) = node.value {
                node.value = .empty  // keeps `members` uniquely referenced while it grows
                members.append((name, child))
                node.value = .object(members)
            }
            return child
        }

        mutating func encodeNil(forKey key: Key) throws { add(key).value = .written(Array("null".utf8)) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try WireJSONEncoder.encode(value, into: add(key), codingPath: codingPath)
        }

        mutating func encode(_ value: String, forKey key: Key) throws { add(key).value = WireJSONEncoder.written(value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { add(key).value = WireJSONEncoder.written(value) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { add(key).value = WireJSONEncoder.written(value) }

        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            if let value { add(key).value = WireJSONEncoder.written(value) }
        }

        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            if let value { add(key).value = WireJSONEncoder.written(value) }
        }

        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            if let value { add(key).value = WireJSONEncoder.written(value) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            WireJSONEncoder(node: add(key), codingPath: codingPath).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            WireJSONEncoder(node: add(key), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            WireJSONEncoder(node: add(named: "super"), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            WireJSONEncoder(node: add(key), codingPath: codingPath)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: WireJSONNode
        let codingPath: [any CodingKey]
        var count: Int {
            if case .array(let elements) = node.value { return elements.count }
            return 0
        }

        private func add() -> WireJSONNode {
            let child = WireJSONNode()
            if case .array(var elements) = node.value {
                node.value = .empty
                elements.append(child)
                node.value = .array(elements)
            }
            return child
        }

        mutating func encodeNil() throws { add().value = .written(Array("null".utf8)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try WireJSONEncoder.encode(value, into: add(), codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            WireJSONEncoder(node: add(), codingPath: codingPath).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            WireJSONEncoder(node: add(), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            WireJSONEncoder(node: add(), codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let node: WireJSONNode
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.value = .written(Array("null".utf8)) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try WireJSONEncoder.encode(value, into: node, codingPath: codingPath)
        }

        mutating func encode(_ value: String) throws { node.value = WireJSONEncoder.written(value) }
        mutating func encode(_ value: Int) throws { node.value = WireJSONEncoder.written(value) }
        mutating func encode(_ value: Bool) throws { node.value = WireJSONEncoder.written(value) }
    }
}
