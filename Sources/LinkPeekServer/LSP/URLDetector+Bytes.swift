/// The byte-level rules of `URLDetector`: which bytes end a URL, which
/// start a host, which count as part of a word.
extension URLDetector {
    /// Non-ASCII characters that end a URL: Unicode spaces, and the
    /// punctuation that CJK and typographic text puts right after one.
    static func endsURL(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return true }
        switch scalar.value {
        case 0x80...0xA0, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0xFEFF: return true
        case 0x2018...0x201F, 0x2026, 0x2039, 0x203A, 0x00AB, 0x00BB: return true
        case 0x3000...0x303F: return true
        case 0xFF01, 0xFF08, 0xFF09, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1C, 0xFF1E, 0xFF1F, 0xFF3B, 0xFF3D: return true
        default: return scalar.properties.isWhitespace
        }
    }

    static func decode(_ line: [UInt8], at index: Int) -> (Unicode.Scalar?, Int) {
        let length = PositionEncoding.sequenceLength(line[index])
        guard index + length <= line.count else { return (nil, 1) }
        var iterator = line[index..<(index + length)].makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return (scalar, length) }
        return (nil, 1)
    }

    static let trailingPunctuation: Set<UInt8> = Set(".,;:!?*'".utf8)
    /// A `www.` right after these is part of something else (an address, a path, a host).
    static let wwwBlockers: Set<UInt8> = Set("@./-:".utf8)

    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    static func isHostStart(_ byte: UInt8) -> Bool {
        byte >= 0x80 || (isWordByte(byte) && byte != UInt8(ascii: "_"))
    }

    static func hasPrefix(_ line: [UInt8], _ prefix: [UInt8], at start: Int) -> Bool {
        guard line.count - start >= prefix.count else { return false }
        for offset in 0..<prefix.count where line[start + offset] | 0x20 != prefix[offset] | 0x20 {
            // `| 0x20` lowercases letters and leaves ":" and "/" and "." as they are.
            return false
        }
        return true
    }

    /// `www.example` is not a host people write; `www.example.com` is: a dot
    /// in the host, after letters, digits, hyphens or non-ASCII bytes, and
    /// before anything else.
    static func hasDotInHost(_ line: [UInt8], from: Int) -> Bool {
        var index = from
        while index < line.count {
            let byte = line[index]
            if byte == UInt8(ascii: ".") { return index > from && index + 1 < line.count && isHostStart(line[index + 1]) }
            guard isHostStart(byte) || byte == UInt8(ascii: "-") else { return false }
            index += 1
        }
        return false
    }
}
