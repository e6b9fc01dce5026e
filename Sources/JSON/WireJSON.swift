import FoundationEssentials

/// Encodes an `Encodable` as JSON, the one way linkpeek writes a value (the
/// daemon's results, the CLI's lines, the cache's rows, fleet entries, image
/// headers, a tape's index): it builds a small tree of already-written values
/// and hands it to `JSONWriter`. The bytes are what `JSONEncoder` writes with
/// sorted keys and unescaped slashes (and, pretty, `.prettyPrinted`):
/// strings, integers, booleans, doubles (Swift's spelling without a
/// trailing `.0`; NaN and the infinities refused), dates (their own
/// `Codable`: seconds since 2001, `JSONEncoder`'s default), arrays and
/// keyed objects. `Data`, `URL` and `Decimal`, which `JSONEncoder` treats
/// in its own ways and nothing here holds, are refused with an
/// `EncodingError`.
///
/// Written for the output of `fetch` (a line per URL): `JSONEncoder` boxes
/// every value into a tree of its own and then walks it, which cost about
/// as much as the rest of printing a result (4% of `fetch`'s CPU).
public enum WireJSON {
    /// `value` as compact JSON, or indented (`JSONWriter.indented`) when `pretty`.
    public static func bytes(of value: some Encodable, pretty: Bool = false) throws -> [UInt8] {
        let root = WireJSONNode()
        try value.encode(to: WireEncoder(node: root, codingPath: []))
        var writer = JSONWriter(capacity: 1024)
        root.write(to: &writer)
        return pretty ? JSONWriter.indented(writer.bytes) : writer.bytes
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
