import FoundationEssentials

/// JSON parsed into untyped Swift values, the shape `JSONSerialization`
/// gave: `[String: Any]` objects, `[Any]` arrays, `String`, `Double`, `Bool`,
/// and `AnyJSON.null`. JSON-LD is read this way because its shape is open.
///
/// `JSONSerialization` lives in full Foundation, which the daemon does not
/// load (it costs about 6 MB of resident memory); `JSONDecoder` is in
/// FoundationEssentials, so this decodes through it.
struct AnyJSON: Decodable {
    /// JSON's `null`: a value that no `as? String`, `as? [Any]`… matches.
    struct Null {}

    static let null = Null()

    let value: Any

    /// The value of one JSON text; only an object or an array at the top,
    /// as `JSONSerialization` required. Read by `JSONReader` where it is
    /// sure of the answer, else by `JSONDecoder` (`decoded`).
    static func parse(_ text: String) throws -> Any {
        if let value = JSONReader.read(text) { return value }
        return try decoded(text)
    }

    /// `parse` through `JSONDecoder` and this type's `Decodable` conformance.
    static func decoded(_ text: String) throws -> Any {
        let value = try JSONDecoder().decode(AnyJSON.self, from: Data(text.utf8)).value
        guard value is [String: Any] || value is [Any] else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not an object or an array"))
        }
        return value
    }

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [Any] = []
            while !array.isAtEnd { elements.append(try array.decode(AnyJSON.self).value) }
            value = elements
        } else if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [String: Any] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(AnyJSON.self, forKey: key).value }
            value = members
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                value = AnyJSON.null
            } else if let bool = try? single.decode(Bool.self) {
                value = bool
            } else if let string = try? single.decode(String.self) {
                value = string
            } else {
                value = try single.decode(Double.self)
            }
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
