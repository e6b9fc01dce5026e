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
        let tree = WireJSONTree()
        try value.encode(to: WireEncoder(node: tree.root, codingPath: []))
        var writer = JSONWriter(capacity: tree.scalars.bytes.count + 16 * tree.nodes.count + 64)
        tree.write(tree.root.index, to: &writer)
        return pretty ? JSONWriter.indented(writer.bytes) : writer.bytes
    }
}

/// The values of one encoding, kept in two flat buffers so that a field
/// costs no allocation of its own: `nodes`, one per value (an array's
/// elements and an object's members are indices into it), and `scalars`,
/// the bytes of every string, number and boolean, written one after the
/// other as they are encoded (a scalar node is its range there). Objects
/// are sorted by key only when written.
final class WireJSONTree {
    enum Value {
        case empty
        case written(Range<Int>)
        case array([Int])
        case object([(key: String, value: Int)])
    }

    var nodes: [Value] = [.empty]
    var scalars = JSONWriter(capacity: 1024)

    /// The value being encoded, at the top.
    var root: WireJSONNode { WireJSONNode(tree: self, index: 0) }

    /// A new empty value; its index.
    func add() -> Int {
        nodes.append(.empty)
        return nodes.count - 1
    }

    /// Sets `index` to what `write` writes to the scalar bytes.
    func set(_ index: Int, _ write: (inout JSONWriter) -> Void) {
        let start = scalars.bytes.count
        write(&scalars)
        nodes[index] = .written(start..<scalars.bytes.count)
    }

    /// Adds a member named `name` to the object at `index` (an object from now on); the member's index.
    func addMember(named name: String, to index: Int) -> Int {
        let child = add()
        if case .object(var members) = nodes[index] {
            nodes[index] = .empty  // keeps `members` uniquely referenced while it grows
            members.append((key: name, value: child))
            nodes[index] = .object(members)
        } else {
            nodes[index] = .object([(key: name, value: child)])
        }
        return child
    }

    /// Adds an element to the array at `index` (an array from now on); the element's index.
    func addElement(to index: Int) -> Int {
        let child = add()
        if case .array(var elements) = nodes[index] {
            nodes[index] = .empty
            elements.append(child)
            nodes[index] = .array(elements)
        } else {
            nodes[index] = .array([child])
        }
        return child
    }

    func write(_ index: Int, to writer: inout JSONWriter) {
        switch nodes[index] {
        case .empty:
            // An `Encodable` that encoded nothing: `JSONEncoder` writes an empty object.
            writer.append(byte: UInt8(ascii: "{"))
            writer.append(byte: UInt8(ascii: "}"))
        case .written(let range):
            writer.append(json: scalars.bytes[range])
        case .array(let elements):
            writer.writeArray(elements) { writer, element in write(element, to: &writer) }
        case .object(let members):
            // Synthesized `Codable` never encodes a key twice, so no key is dropped here.
            writer.writeObject(members) { writer, member in write(member, to: &writer) }
        }
    }
}

/// One value of a `WireJSONTree`, as the encoder's containers hold it.
struct WireJSONNode {
    let tree: WireJSONTree
    let index: Int

    /// Makes this value an object (keeping the members it has).
    func makeObject() {
        if case .object = tree.nodes[index] {} else { tree.nodes[index] = .object([]) }
    }

    /// Makes this value an array (keeping the elements it has).
    func makeArray() {
        if case .array = tree.nodes[index] {} else { tree.nodes[index] = .array([]) }
    }

    var elementCount: Int {
        if case .array(let elements) = tree.nodes[index] { return elements.count }
        return 0
    }

    func member(named name: String) -> WireJSONNode {
        WireJSONNode(tree: tree, index: tree.addMember(named: name, to: index))
    }

    func element() -> WireJSONNode {
        WireJSONNode(tree: tree, index: tree.addElement(to: index))
    }

    /// Sets this value to the scalar `write` writes.
    func set(_ write: (inout JSONWriter) -> Void) {
        tree.set(index, write)
    }
}
