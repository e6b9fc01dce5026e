extension JSONParser {
    /// A string starting at the opening quote. Runs without escapes are
    /// copied whole (the input is already valid UTF-8).
    mutating func string() -> String? {
        index += 1
        var result = ""
        var runStart = index
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                result += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                index += 1
                return result
            case UInt8(ascii: "\\"):
                result += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                index += 1
                guard let scalar = escape() else { return nil }
                result.unicodeScalars.append(scalar)
                runStart = index
            case ..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    /// The scalar an escape spells, `index` just after the backslash.
    private mutating func escape() -> Unicode.Scalar? {
        guard let byte = current else { return nil }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
        case UInt8(ascii: "b"): return "\u{8}"
        case UInt8(ascii: "f"): return "\u{C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hex4() else { return nil }
            if (0xD800..<0xDC00).contains(unit) {
                // A high surrogate must be followed by an escaped low one.
                guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                index += 2
                guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(unit)  // nil for a lone low surrogate
        default: return nil
        }
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number by the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func number() -> JSONValue? {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { return nil }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        var integral = true
        if current == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard skipDigits() else { return nil }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            integral = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() else { return nil }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if integral, let value = Int(text) { return .int(value) }
        // As `JSONDecoder` reads it for `JSONValue`: an integral double that fits is an integer.
        guard let double = Double(text), double.isFinite else { return nil }
        if let value = Int(exactly: double) { return .int(value) }
        return .double(double)
    }

    /// Skips digits; false when there were none.
    @discardableResult
    private mutating func skipDigits() -> Bool {
        let start = index
        while let byte = current, isDigit(byte) { index += 1 }
        return index > start
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
