extension JSONValue {
    /// `value` as JSON, through its `Encodable` conformance (absent optionals
    /// omitted): written as the wire writes it, then parsed.
    public init(encoding value: some Encodable) throws {
        self = try RawJSON(encoding: value).parsed()
    }

    /// This JSON read as a `T`, straight from the tree (`JSONValueDecoder`);
    /// throws the `DecodingError` that says which field is wrong.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONValueDecoder.decode(type, from: self)
    }
}
