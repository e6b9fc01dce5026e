import FoundationEssentials

extension LinkMetadata {
    /// The preview as the wire spells it (CLI and daemon): compact UTF-8
    /// JSON, keys sorted, slashes unescaped, absent fields omitted. Written
    /// by `WireJSON` (the same bytes as `JSONEncoder.wire`, a fraction of
    /// the cost); by `JSONEncoder` when `WireJSON` refuses a value.
    public func jsonBytes() throws -> [UInt8] {
        if let bytes = try? WireJSON.encode(self) { return bytes }
        return Array(try JSONEncoder.wire.encode(self))
    }
}

extension JSONEncoder {
    /// Sorted keys keep output stable; unescaped slashes keep URLs readable.
    static var wire: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
