import TextTrimming

/// Whether bytes are one JSON object that may go on the wire as they are:
/// valid UTF-8 and, by `JSONParser`'s grammar and depth limit, one object
/// with nothing after it but whitespace. It builds nothing (no tree, no
/// strings): the cache serves stored previews as their bytes and checks
/// each one with this first, for a fraction of what parsing it costs.
///
/// It agrees with `JSONParser.parse` giving `.success(.object)` on every
/// valid UTF-8 input (`JSONObjectCheckTests` compares them); bytes that are
/// not UTF-8, which the parser reads with replacement characters, fail.
public enum JSONObjectCheck {
    public static func isObject(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            return scanner.document()
        }
    }

    /// The grammar walked without recursion: a stack of the open
    /// containers (true for an object), as deep as `JSONParser.maximumDepth`.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func document() -> Bool {
            skipWhitespace()
            guard current == UInt8(ascii: "{"), values() else { return false }
            skipWhitespace()
            return index == bytes.count
        }

        /// One value and all it contains.
        mutating func values() -> Bool {
            var open: [Bool] = []
            while true {
                // A value is expected here.
                skipWhitespace()
                guard let byte = current else { return false }
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    // Empty or not, a container counts towards the depth, as in the parser.
                    guard open.count < JSONParser.maximumDepth else { return false }
                    let isObject = byte == UInt8(ascii: "{")
                    index += 1
                    skipWhitespace()
                    if current == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                        index += 1
                    } else {
                        open.append(isObject)
                        if isObject, !key() { return false }
                        continue
                    }
                case UInt8(ascii: "\""): guard string() else { return false }
                case UInt8(ascii: "t"): guard literal("true") else { return false }
                case UInt8(ascii: "f"): guard literal("false") else { return false }
                case UInt8(ascii: "n"): guard literal("null") else { return false }
                default: guard number() else { return false }
                }
                // A value ended: close what it ends, or go on to the next member or element.
                while true {
                    guard let inObject = open.last else { return true }
                    skipWhitespace()
                    if current == UInt8(ascii: ",") {
                        index += 1
                        if inObject, !key() { return false }
                        break
                    }
                    guard current == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return false }
                    index += 1
                    open.removeLast()
                }
            }
        }

        /// A member's name and its colon.
        mutating func key() -> Bool {
            skipWhitespace()
            guard current == UInt8(ascii: "\""), string() else { return false }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return false }
            index += 1
            return true
        }

        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// A string from its opening quote: escapes as the parser reads them,
        /// no control characters, UTF-8 sequences well formed.
        mutating func string() -> Bool {
            index += 1
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return true
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current else { return false }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                         UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        guard index + 4 <= bytes.count else { return false }
                        for _ in 0..<4 {
                            guard ASCIIByte.hexValue(bytes[index]) != nil else { return false }
                            index += 1
                        }
                    default: return false
                    }
                case ..<0x20: return false
                case ..<0x80: index += 1
                default: guard utf8Sequence() else { return false }
                }
            }
            return false
        }

        /// A multi-byte UTF-8 sequence at `index` (RFC 3629: no overlong
        /// forms, no surrogates, nothing past U+10FFFF).
        mutating func utf8Sequence() -> Bool {
            let lead = bytes[index]
            let (count, low, high): (Int, UInt8, UInt8)
            switch lead {
            case 0xC2...0xDF: (count, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (count, low, high) = (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (count, low, high) = (3, 0x80, 0xBF)
            case 0xED: (count, low, high) = (3, 0x80, 0x9F)
            case 0xF0: (count, low, high) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (count, low, high) = (4, 0x80, 0xBF)
            case 0xF4: (count, low, high) = (4, 0x80, 0x8F)
            default: return false
            }
            guard index + count <= bytes.count, (low...high).contains(bytes[index + 1]) else { return false }
            for offset in 2..<count where !(0x80...0xBF).contains(bytes[index + offset]) { return false }
            index += count
            return true
        }

        /// A number by the JSON grammar (its magnitude does not matter here).
        mutating func number() -> Bool {
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, isDigit(first) else { return false }
            index += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if current == UInt8(ascii: ".") {
                index += 1
                guard skipDigits() else { return false }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() else { return false }
            }
            return true
        }

        @discardableResult
        mutating func skipDigits() -> Bool {
            let start = index
            while let byte = current, isDigit(byte) { index += 1 }
            return index > start
        }

        func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }
    }
}
