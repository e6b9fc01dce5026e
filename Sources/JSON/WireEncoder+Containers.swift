/// The containers of `WireEncoder`: each adds members or elements to its node.
extension WireEncoder {
    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: WireJSONNode
        let codingPath: [any CodingKey]

        private func add(_ key: Key) -> WireJSONNode { add(named: key.stringValue) }

        private func add(named name: String) -> WireJSONNode {
            let child = WireJSONNode()
            if case .object(var members) = node.value {
                node.value = .empty  // keeps `members` uniquely referenced while it grows
                members.append((key: name, value: child))
                node.value = .object(members)
            }
            return child
        }

        mutating func encodeNil(forKey key: Key) throws { add(key).value = WireEncoder.null }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try WireEncoder.encode(value, into: add(key), codingPath: codingPath)
        }

        mutating func encode(_ value: String, forKey key: Key) throws { add(key).value = WireEncoder.written(value) }
        mutating func encode(_ value: Int, forKey key: Key) throws { add(key).value = WireEncoder.written(value) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { add(key).value = WireEncoder.written(value) }

        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            if let value { add(key).value = WireEncoder.written(value) }
        }

        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            if let value { add(key).value = WireEncoder.written(value) }
        }

        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            if let value { add(key).value = WireEncoder.written(value) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            WireEncoder(node: add(key), codingPath: codingPath).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            WireEncoder(node: add(key), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            WireEncoder(node: add(named: "super"), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            WireEncoder(node: add(key), codingPath: codingPath)
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

        mutating func encodeNil() throws { add().value = WireEncoder.null }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try WireEncoder.encode(value, into: add(), codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            WireEncoder(node: add(), codingPath: codingPath).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            WireEncoder(node: add(), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            WireEncoder(node: add(), codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let node: WireJSONNode
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.value = WireEncoder.null }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try WireEncoder.encode(value, into: node, codingPath: codingPath)
        }

        mutating func encode(_ value: String) throws { node.value = WireEncoder.written(value) }
        mutating func encode(_ value: Int) throws { node.value = WireEncoder.written(value) }
        mutating func encode(_ value: Bool) throws { node.value = WireEncoder.written(value) }
    }
}
