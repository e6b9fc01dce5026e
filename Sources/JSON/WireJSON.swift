import FoundationEssentials

/// Encodes an `Encodable` as compact JSON, byte for byte what
/// `JSONEncoder.wire` writes for the types previews and results are made of
/// (strings, integers, booleans, arrays, keyed objects): it builds a small
/// tree of already-written values and hands it to `JSONWriter`.
///
/// Written for the output of `fetch` (a line per URL): `JSONEncoder` boxes
/// every value into a tree of its own and then walks it, which cost about
/// as much as the rest of printing a result (4% of `fetch`'s CPU). Doubles,
/// `Date`, `Data` and `URL` — which `JSONEncoder` treats in its own ways —
/// are refused by `encode` (`Unsupported`); `bytes(of:)` then falls back to
/// `JSONEncoder.wire`.
public enum WireJSON {
    public struct Unsupported: Error {}

    /// `value` as JSON, or `Unsupported` for a value with a double, a date, data or a URL in it.
    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        let root = WireJSONNode()
        try value.encode(to: WireJSONEncoder(node: root, codingPath: []))
        var writer = JSONWriter(capacity: 1024)
        root.write(to: &writer)
        return writer.bytes
    }

    /// `value` as the wire writes every value (the daemon's results, the
    /// CLI's lines): by `encode` where it can, else by `JSONEncoder.wire`,
    /// which writes the same bytes.
    public static func bytes(of value: some Encodable) throws -> [UInt8] {
        if let bytes = try? encode(value) { return bytes }
        return Array(try JSONEncoder.wire.encode(value))
    }
}

/// One value of the tree: written bytes, an array or an object whose
/// members may still be filled in by nested containers.
final class WireJSONNode {
    enum Value {
        case empty
        case written([UInt8])
        case array([WireJSONNode])
        case object([(key: String, value: WireJSONNode)])
    }

    var value = Value.empty

    func write(to writer: inout JSONWriter) {
        switch value {
        case .empty:
            // An `Encodable` that encoded nothing: `JSONEncoder` writes an empty object.
            writer.append(json: Array("{}".utf8))
        case .written(let written):
            writer.append(json: written)
        case .array(let elements):
            writer.writeArray(elements) { writer, element in element.write(to: &writer) }
        case .object(let members):
            // Synthesized `Codable` never encodes a key twice, so no key is dropped here.
            writer.writeObject(members) { writer, member in member.write(to: &writer) }
        }
    }

    /// One scalar, written by `JSONWriter`.
    static func written(_ write: (inout JSONWriter) -> Void) -> Value {
        var writer = JSONWriter(capacity: 16)
        write(&writer)
        return .written(writer.bytes)
    }
}
