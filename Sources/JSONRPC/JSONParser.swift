/// A strict RFC 8259 parser from UTF-8 bytes to `JSONValue`, for the input
/// path: every message is parsed once on the reader thread, and
/// `JSONDecoder` (through `JSONValue`'s `Decodable` conformance, which tries
/// each type in turn and throws on every miss) took about a third of the
/// daemon's time on pipelined `getCached`.
///
/// It gives up (returns nil) on anything it is not sure `JSONDecoder` reads
/// the same way: invalid JSON, lone surrogates, numbers out of range,
/// duplicate keys, nesting deeper than 512. The caller then falls back to
/// `JSONDecoder`, so what is accepted, what is rejected and the values read
/// stay exactly as before. Numbers follow `JSONValue`'s rule: an integral
/// value that fits is `.int` (`1`, `1.0`, `1e2`), anything else `.double`.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    private var depth = 0

    /// The value `body` holds, or nil when the fast path declines.
    static func parse(_ body: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        var parser = JSONParser(bytes: body)
        guard let value = parser.value() else { return nil }
        parser.skipWhitespace()
        // (Not a `? :` with `nil`: JSONValue is ExpressibleByNilLiteral, so that nil would be `.null`.)
        guard parser.index == body.count else { return nil }
        return value
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    private mutating func value() -> JSONValue? {
        skipWhitespace()
        guard let byte = current else { return nil }
        switch byte {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
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
        guard depth <= 512 else { return nil }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let member = value(), members.updateValue(member, forKey: key) == nil else { return nil }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: return nil
            }
        }
    }

    private mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 512 else { return nil }
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
