/// One JSON value already encoded as UTF-8 bytes, written verbatim into the
/// message that carries it (the way serde_json's `RawValue` is).
///
/// It exists for speed: a result that is encoded once (a cached preview, or
/// a `Codable` value encoded straight to bytes) is spliced into the response
/// frame instead of being turned into a `JSONValue` tree and encoded again.
/// Decoding never produces it.
///
/// The bytes must be one complete JSON value with no raw newline (every
/// encoder without pretty-printing guarantees that), or the NDJSON framing
/// would break.
public struct RawJSON: Sendable, Hashable {
    public let bytes: [UInt8]

    /// Wraps bytes the caller vouches for (see the type's requirements).
    public init(trusted bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// `value` encoded as the wire writes everything (`WireJSON.bytes`):
    /// keys sorted, slashes unescaped, absent optionals omitted.
    public init(encoding value: some Encodable) throws {
        bytes = try WireJSON.bytes(of: value)
    }

    /// The bytes parsed (by `JSONParser`, as every message is), for the rare reader that needs the tree.
    public func parsed() throws(JSONParser.Failure) -> JSONValue {
        try JSONParser.parse(bytes).get()
    }
}
