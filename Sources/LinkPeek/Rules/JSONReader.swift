import TextTrimming

/// A direct reader of strict JSON (RFC 8259) into the values `AnyJSON`
/// gives: `[String: Any]`, `[Any]`, `String`, `Double`, `Bool`, `AnyJSON.null`.
///
/// Why: the JSON-LD blocks of news and shop pages (a few KB each) went
/// through `JSONDecoder` and `AnyJSON`'s `Decodable` conformance, whose
/// coding paths, containers and existential boxes took about a fifth of a
/// fetch's CPU on such pages (a profile of fetches); this reads the bytes once.
///
/// It accepts only what it is sure `JSONDecoder` reads the same way, and
/// gives up (nil) on anything else — a repeated key, an unescaped control
/// character, a lone surrogate escape, a number that is not a finite
/// `Double` or that rounds to zero, nesting past `maxDepth` — so that
/// `AnyJSON.parse` can hand exactly those texts to `JSONDecoder`, whose
/// verdict and values stay the reference.
struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    /// Arrays and objects open at once, at most (`JSONDecoder` allows 512;
    /// deeper texts go to it). Also bounds this reader's recursion.
    static let maxDepth = 128

    private struct GiveUp: Error {}

    /// The value of `text` when it is one JSON object or array, else nil
    /// (see the type's summary for what else gives nil).
    static func read(_ text: String) -> Any? {
        var text = text
        return text.withUTF8 { buffer -> Any? in
            var reader = JSONReader(bytes: buffer)
            return try? reader.readDocument()
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    private mutating func readDocument() throws -> Any {
        skipSpace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") else {
            throw GiveUp()
        }
        let value = try readValue()
        skipSpace()
        guard index == bytes.count else { throw GiveUp() }
        return value
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func readValue() throws -> Any {
        guard index < bytes.count else { throw GiveUp() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try readObject()
        case UInt8(ascii: "["): return try readArray()
        case UInt8(ascii: "\""): return try readString()
        case UInt8(ascii: "t"): try readLiteral("true"); return true
        case UInt8(ascii: "f"): try readLiteral("false"); return false
        case UInt8(ascii: "n"): try readLiteral("null"); return AnyJSON.null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        default: throw GiveUp()
        }
    }

    private mutating func readLiteral(_ literal: StaticString) throws {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { throw GiveUp() }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] { throw GiveUp() }
        index += count
    }

    /// Moves past `byte` after optional white space, or gives up.
    private mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { throw GiveUp() }
        index += 1
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= JSONReader.maxDepth else { throw GiveUp() }
        index += 1
    }

    private mutating func readObject() throws -> [String: Any] {
        try enter()
        var members: [String: Any] = [:]
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return members
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw GiveUp() }
            let key = try readString()
            try expect(UInt8(ascii: ":"))
            skipSpace()
            let value = try readValue()
            // Which of two equal keys JSONDecoder keeps is its business.
            guard members.updateValue(value, forKey: key) == nil else { throw GiveUp() }
            skipSpace()
            guard index < bytes.count else { throw GiveUp() }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "}") { break }
            guard separator == UInt8(ascii: ",") else { throw GiveUp() }
        }
        depth -= 1
        return members
    }

    private mutating func readArray() throws -> [Any] {
        try enter()
        var elements: [Any] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return elements
        }
        while true {
            skipSpace()
            elements.append(try readValue())
            skipSpace()
            guard index < bytes.count else { throw GiveUp() }
            let separator = bytes[index]
            index += 1
            if separator == UInt8(ascii: "]") { break }
            guard separator == UInt8(ascii: ",") else { throw GiveUp() }
        }
        depth -= 1
        return elements
    }

    /// A string from its opening quote: the bytes as they are up to the
    /// first escape, then decoded into a buffer.
    private mutating func readString() throws -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw GiveUp() }
            index += 1
        }
        var decoded = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try readEscape(into: &decoded)
            case 0..<0x20:
                throw GiveUp()
            default:
                decoded.append(byte)
            }
        }
        throw GiveUp()
    }

    /// One escape, after its backslash.
    private mutating func readEscape(into decoded: inout [UInt8]) throws {
        guard index < bytes.count else { throw GiveUp() }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var value = try readHex()
            if (0xD800...0xDBFF).contains(value) {
                // A high surrogate must be followed by an escaped low one.
                guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw GiveUp() }
                index += 2
                let low = try readHex()
                guard (0xDC00...0xDFFF).contains(low) else { throw GiveUp() }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(value) {
                throw GiveUp()
            }
            guard let scalar = Unicode.Scalar(value) else { throw GiveUp() }
            decoded.append(contentsOf: UTF8.encode(scalar) ?? UTF8.EncodedScalar())
        default:
            throw GiveUp()
        }
    }

    private mutating func readHex() throws -> UInt32 {
        guard bytes.count - index >= 4 else { throw GiveUp() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            guard let digit = ASCIIByte.hexValue(byte) else { throw GiveUp() }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number by JSON's grammar, as a finite `Double`; one that rounds to
    /// zero though it has a non-zero digit (an underflow) gives up.
    private mutating func readNumber() throws -> Double {
        let start = index
        var nonZeroDigit = false
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw GiveUp() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard try digits(&nonZeroDigit) > 0 else { throw GiveUp() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard try digits(&nonZeroDigit) > 0 else { throw GiveUp() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            var ignored = false
            guard try digits(&ignored) > 0 else { throw GiveUp() }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite, value != 0 || !nonZeroDigit else { throw GiveUp() }
        return value
    }

    /// Moves past a run of decimal digits; returns how many, noting a non-zero one.
    private mutating func digits(_ nonZero: inout Bool) throws -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            if bytes[index] != UInt8(ascii: "0") { nonZero = true }
            index += 1
        }
        return index - start
    }
}
