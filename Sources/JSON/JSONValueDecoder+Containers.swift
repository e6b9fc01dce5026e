/// The containers of `JSONValueDecoder`: each reads the members or elements of one parsed value.
extension JSONValueDecoder {
    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [String: JSONValue]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        private func member(_ key: Key) throws -> JSONValue {
            guard let value = members[key.stringValue] else {
                throw DecodingError.keyNotFound(key, DecodingError.Context(
                    codingPath: codingPath, debugDescription: "No value for the key \"\(key.stringValue)\""))
            }
            return value
        }

        private func decoder(for key: Key) throws -> JSONValueDecoder {
            JSONValueDecoder(try member(key), codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            if case .null = try member(key).resolved { return true }
            return false
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try Scalars.bool(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try Scalars.string(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try Scalars.double(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            try Scalars.integer(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
            try Scalars.integer(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
            try Scalars.integer(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
            try Scalars.integer(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            try Scalars.integer(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
            try Scalars.integer(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
            try Scalars.integer(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
            try Scalars.integer(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
            try Scalars.integer(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
            try Scalars.integer(try member(key).resolved, codingPath + [key])
        }

        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            Float(try Scalars.double(try member(key).resolved, codingPath + [key]))
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try T(from: try decoder(for: key))
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try decoder(for: key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder(for: key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            JSONValueDecoder(members["super"] ?? .null, codingPath: codingPath + [IndexKey.superKey])
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            JSONValueDecoder(members[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [JSONValue]
        let codingPath: [any CodingKey]
        private(set) var currentIndex = 0

        init(elements: [JSONValue], codingPath: [any CodingKey]) {
            self.elements = elements
            self.codingPath = codingPath
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        /// The next element's decoder; does not advance.
        private func next<T>(_ type: T.Type) throws -> JSONValueDecoder {
            let path = codingPath + [IndexKey(currentIndex)]
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(type, DecodingError.Context(
                    codingPath: path, debugDescription: "Unkeyed container is at end."))
            }
            return JSONValueDecoder(elements[currentIndex], codingPath: path)
        }

        mutating func decodeNil() throws -> Bool {
            guard case .null = try next(JSONValue.self).value.resolved else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try decode(Primitive<Bool>.self).value }
        mutating func decode(_ type: String.Type) throws -> String { try decode(Primitive<String>.self).value }
        mutating func decode(_ type: Double.Type) throws -> Double { try decode(Primitive<Double>.self).value }
        mutating func decode(_ type: Float.Type) throws -> Float { try decode(Primitive<Float>.self).value }
        mutating func decode(_ type: Int.Type) throws -> Int { try decode(Primitive<Int>.self).value }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try decode(Primitive<Int8>.self).value }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try decode(Primitive<Int16>.self).value }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try decode(Primitive<Int32>.self).value }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try decode(Primitive<Int64>.self).value }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try decode(Primitive<UInt>.self).value }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decode(Primitive<UInt8>.self).value }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decode(Primitive<UInt16>.self).value }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decode(Primitive<UInt32>.self).value }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decode(Primitive<UInt64>.self).value }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let value = try T(from: try next(type))
            currentIndex += 1
            return value
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            let container = try next([String: Any].self).container(keyedBy: type)
            currentIndex += 1
            return container
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let container = try next([Any].self).unkeyedContainer()
            currentIndex += 1
            return container
        }

        mutating func superDecoder() throws -> any Decoder {
            let decoder = try next(JSONValue.self)
            currentIndex += 1
            return decoder
        }
    }

    struct Single: SingleValueDecodingContainer {
        let value: JSONValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool {
            if case .null = value { return true }
            return false
        }

        func decode(_ type: Bool.Type) throws -> Bool { try Scalars.bool(value, codingPath) }
        func decode(_ type: String.Type) throws -> String { try Scalars.string(value, codingPath) }
        func decode(_ type: Double.Type) throws -> Double { try Scalars.double(value, codingPath) }
        func decode(_ type: Float.Type) throws -> Float { Float(try Scalars.double(value, codingPath)) }
        func decode(_ type: Int.Type) throws -> Int { try Scalars.integer(value, codingPath) }
        func decode(_ type: Int8.Type) throws -> Int8 { try Scalars.integer(value, codingPath) }
        func decode(_ type: Int16.Type) throws -> Int16 { try Scalars.integer(value, codingPath) }
        func decode(_ type: Int32.Type) throws -> Int32 { try Scalars.integer(value, codingPath) }
        func decode(_ type: Int64.Type) throws -> Int64 { try Scalars.integer(value, codingPath) }
        func decode(_ type: UInt.Type) throws -> UInt { try Scalars.integer(value, codingPath) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try Scalars.integer(value, codingPath) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try Scalars.integer(value, codingPath) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try Scalars.integer(value, codingPath) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try Scalars.integer(value, codingPath) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try T(from: JSONValueDecoder(value, codingPath: codingPath))
        }
    }
}

/// A primitive read through its single-value container, so that the
/// unkeyed container's overloads share `decode<T>`'s bookkeeping.
private struct Primitive<Value: Decodable>: Decodable {
    let value: Value
    init(from decoder: any Decoder) throws { value = try Value(from: decoder) }
}
