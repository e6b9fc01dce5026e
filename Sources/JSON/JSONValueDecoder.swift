/// A `Decoder` over a parsed `JSONValue`: request params are read straight
/// from the tree the parser built, with no second trip through bytes.
///
/// It reads what `JSONDecoder` (default strategies) reads from the same
/// value written out, and fails the same way, so that the daemon's -32602
/// sentences (which name the coding path and the expected type) stay as
/// they were: a value of the wrong JSON type is a `typeMismatch` for the
/// type asked for (`[String: Any]` for an object, `[Any]` for an array), a
/// `null` a `valueNotFound`, a missing key `keyNotFound`, and a number an
/// integer type cannot hold exactly (`1.5`, `1e20`) `dataCorrupted` — with
/// an empty coding path, as `JSONDecoder` gives it.
public struct JSONValueDecoder: Decoder {
    let value: JSONValue
    public let codingPath: [any CodingKey]
    public var userInfo: [CodingUserInfoKey: Any] { [:] }

    public init(_ value: JSONValue, codingPath: [any CodingKey] = []) {
        self.value = value
        self.codingPath = codingPath
    }

    /// `value` read as a `T`.
    public static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try T(from: JSONValueDecoder(value))
    }

    public func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value.resolved {
        case .object(let members): return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
        case .null: throw DecodingError.valueNotFound([String: Any].self, context("found null instead of an object"))
        default: throw DecodingError.typeMismatch([String: Any].self, context("expected an object"))
        }
    }

    public func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value.resolved {
        case .array(let elements): return Unkeyed(elements: elements, codingPath: codingPath)
        case .null: throw DecodingError.valueNotFound([Any].self, context("found null instead of an array"))
        default: throw DecodingError.typeMismatch([Any].self, context("expected an array"))
        }
    }

    public func singleValueContainer() throws -> any SingleValueDecodingContainer {
        Single(value: value.resolved, codingPath: codingPath)
    }

    private func context(_ description: String) -> DecodingError.Context {
        DecodingError.Context(codingPath: codingPath, debugDescription: description)
    }
}

extension JSONValue {
    /// A `.raw` value as its parsed tree (invalid bytes read as `null`); any other value as it is.
    var resolved: JSONValue {
        guard case .raw(let raw) = self else { return self }
        return (try? raw.parsed()) ?? .null
    }
}

/// The key of an array element in a coding path, as `JSONDecoder` names it.
struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String

    init(_ index: Int) {
        intValue = index
        stringValue = "Index \(index)"
    }

    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}

extension IndexKey {
    /// `superDecoder()`'s key, as `JSONDecoder` names it.
    static var superKey: IndexKey { IndexKey(name: "super") }

    private init(name: String) {
        intValue = nil
        stringValue = name
    }
}

/// The scalar reads every container shares.
enum Scalars {
    static func bool(_ value: JSONValue, _ path: [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, path) }
        return bool
    }

    static func string(_ value: JSONValue, _ path: [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, path) }
        return string
    }

    static func double(_ value: JSONValue, _ path: [any CodingKey]) throws -> Double {
        switch value {
        case .int(let integer): return Double(integer)
        case .double(let double): return double
        case .number(let text):
            guard let double = Double(text), double.isFinite else { throw corrupted(text, Double.self) }
            return double
        default: throw mismatch(Double.self, value, path)
        }
    }

    /// An integer type from a number that it holds exactly, as `JSONDecoder`
    /// reads one: `100` and `1e2` alike, never `1.5` or a number past its range.
    static func integer<T: FixedWidthInteger>(_ value: JSONValue, _ path: [any CodingKey]) throws -> T {
        switch value {
        case .int(let integer):
            guard let exact = T(exactly: integer) else { throw corrupted(String(integer), T.self) }
            return exact
        case .double(let double):
            guard let exact = T(exactly: double) else { throw corrupted(String(double), T.self) }
            return exact
        case .number(let text):
            if let exact = T(text) { return exact }
            guard let exact = Double(text).flatMap({ T(exactly: $0) }) else { throw corrupted(text, T.self) }
            return exact
        default: throw mismatch(T.self, value, path)
        }
    }

    private static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        let context = DecodingError.Context(codingPath: path, debugDescription: "Expected \(type) but found \(value.typeName)")
        if case .null = value { return .valueNotFound(type, context) }
        return .typeMismatch(type, context)
    }

    /// With an empty coding path, as `JSONDecoder` reports a number that
    /// does not fit (it drops the path there), so that the -32602 sentence
    /// stays "params is invalid" as it was.
    private static func corrupted(_ text: String, _ type: Any.Type) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: "The number \(text) does not fit in \(type)"))
    }
}
