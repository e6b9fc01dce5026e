import JSONText

/// Encodes an `Encodable` as compact JSON, byte for byte what
/// `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes for
/// the types previews are made of (strings, integers, booleans, arrays,
/// keyed objects; `JSONEncoder.wire`): keys in UTF-8 byte order, `"`, `\` and control characters
/// escaped (the short forms where JSON has them, else `\u00xx`), absent
/// optionals left out.
///
/// Written for the output of `fetch` (a line per URL): `JSONEncoder` boxes
/// every value into a tree of its own and then walks it, which cost about
/// as much as the rest of printing a result (4% of `fetch`'s CPU); this
/// builds a small tree of already-written values. Doubles, `Date`, `Data` and `URL` — which
/// `JSONEncoder` treats in its own ways — are refused (`Unsupported`), and
/// the caller falls back to `JSONEncoder`.
public enum WireJSON {
    public struct Unsupported: Error {}

    public static func encode(_ value: some Encodable) throws -> [UInt8] {
        let root = WireJSONNode()
        try value.encode(to: WireJSONEncoder(node: root, codingPath: []))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        try root.write(to: &bytes)
        return bytes
    }
}

/// One value of the tree: written bytes, an array or an object whose
/// members may still be filled in by nested containers.
final class WireJSONNode {
    enum Value {
        case empty
        case written([UInt8])
        case array([WireJSONNode])
        case object([(key: String, node: WireJSONNode)])
    }

    var value = Value.empty

    func write(to bytes: inout [UInt8]) throws {
        switch value {
        case .empty:
            // An `Encodable` that encoded nothing: `JSONEncoder` writes an empty object.
            bytes.append(contentsOf: "{}".utf8)
        case .written(let written):
            bytes.append(contentsOf: written)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                try element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            // Synthesized `Codable` never encodes a key twice, so no key is dropped here.
            let ordered = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in ordered.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                WireJSONNode.write(string: member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                try member.node.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// `string` as a JSON string literal.
    static func write(string: String, to bytes: inout [UInt8]) {
        JSONStringLiteral.append(string, to: &bytes)
    }
}
