import JSON

extension LinkMetadata {
    /// The preview as the wire spells it (CLI and daemon): compact UTF-8
    /// JSON, keys sorted, slashes unescaped, absent fields omitted
    /// (`WireJSON.bytes`, the one way linkpeek encodes a value).
    public func jsonBytes() throws -> [UInt8] {
        try WireJSON.bytes(of: self)
    }
}
