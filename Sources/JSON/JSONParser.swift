/// The one JSON parser: strict RFC 8259, from UTF-8 bytes to `JSONValue`.
/// Every message is parsed once, here, on the reader thread (it replaced
/// `JSONDecoder`, which took about a third of the daemon's time on pipelined
/// `getCached`); params are then read from the tree by `JSONValueDecoder`.
///
/// What it accepts is the JSON grammar, with these decisions where the
/// grammar allows what a Swift value cannot hold (protocol/README.md,
/// "Parsing"): an unpaired surrogate escape reads as U+FFFD; a number beyond
/// `Double`'s range reads as the largest finite double of its sign; a
/// duplicate key keeps its last value; an `id` member that is a number keeps
/// its literal text when it is not a plain integer that fits `Int`, so that
/// it is echoed exactly. Nesting deeper than `maximumDepth` is refused
/// (the parser recurses, and no message needs it).
public struct JSONParser {
    /// Why a body is not a message.
    public enum Failure: Error, Equatable {
        /// Not JSON by the grammar; the byte offset where it went wrong.
        case syntax(offset: Int)
        /// Arrays and objects nested deeper than `maximumDepth`.
        case tooDeep
    }

    public static let maximumDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    private var depth = 0

    private var tooDeep = false

    /// The members of the objects being read, innermost last: an object's
    /// dictionary is made once its members are all known, at its size
    /// (grown one member at a time it was rehashed several times).
    private var pendingMembers: [(key: String, value: JSONValue)] = []

    /// The value `body` holds, or why it holds none.
    public static func parse(_ body: [UInt8]) -> Result<JSONValue, Failure> {
        body.withUnsafeBufferPointer(parse)
    }

    /// The value `body` holds, or why it holds none.
    public static func parse(_ body: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, Failure> {
        var parser = JSONParser(bytes: body)
        let value = parser.value()
        if parser.tooDeep { return .failure(.tooDeep) }
        guard let value else { return .failure(.syntax(offset: parser.index)) }
        parser.skipWhitespace()
        guard parser.index == body.count else { return .failure(.syntax(offset: parser.index)) }
        return .success(value)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value(keepingNumberText: Bool = false) -> JSONValue? {
        skipWhitespace()
        guard let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number(keepingText: keepingNumberText)
        }
    }

    private mutating func literal(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return nil }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return nil }
        index += count
        return value
    }

    private mutating func object() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            tooDeep = true
            return nil
        }
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        let base = pendingMembers.count
        defer { pendingMembers.removeSubrange(base...) }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return nil }
            index += 1
            // Ids are echoed as written (see the type's summary).
            guard let member = value(keepingNumberText: key == "id") else { return nil }
            pendingMembers.append((key, member))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                var members = [String: JSONValue](minimumCapacity: pendingMembers.count - base)
                // A repeated key keeps its last value.
                for (key, value) in pendingMembers[base...] { members[key] = value }
                return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            tooDeep = true
            return nil
        }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            guard let element = value() else { return nil }
            elements.append(element)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: return nil
            }
        }
    }
}
