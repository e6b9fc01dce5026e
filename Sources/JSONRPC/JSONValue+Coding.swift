import FoundationEssentials

extension JSONValue {
    /// `value` as JSON, through its `Encodable` conformance (absent optionals omitted).
    public init(encoding value: some Encodable) throws {
        let data = try JSONEncoder().encode(value)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// This JSON read as a `T`; throws the `DecodingError` that says which field is wrong.
    /// (Written with `JSONWriter`, which costs a fraction of `JSONEncoder`: every request's params come through here.)
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        var writer = JSONWriter()
        try writer.write(self)
        return try JSONDecoder().decode(type, from: Data(writer.bytes))
    }
}
