import TextTrimming

extension JSONParser {
    /// A string starting at the opening quote. Runs without escapes are
    /// copied whole (the input is already valid UTF-8).
    mutating func string() -> String? {
        index += 1
        let start = index
        // Most strings hold no escape: found whole, they are made in one copy.
        index = Self.plainRunEnd(in: bytes, from: index)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            index += 1
        }
        var result = ""
        var runStart = start
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

    /// Where the first 8-byte word at or after `start` that may hold a
    /// quote, a backslash or a control byte begins (or the last whole
    /// word's end): the bytes before it are plain string content. Eight
    /// bytes are tested at once, as `memchr` does; the caller's byte loop
    /// reads the rest.
    static func plainRunEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while bytes.count - index >= 8 {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            // A byte is zero in `x` exactly when `(x - 1) & ~x` sets its high bit
            // (borrows make no false "none"); below 0x20 likewise with 0x20.
            let quote = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslash = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            let hits = ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
            if hits & highs != 0 { break }
            index += 8
        }
        return index
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
                // A high surrogate pairs with an escaped low one that follows.
                let afterHigh = index
                if current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") {
                    index += 2
                    if let low = hex4(), (0xDC00..<0xE000).contains(low) {
                        return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                    }
                }
                // Unpaired: JSON's grammar allows it, a Swift String cannot hold it.
                index = afterHigh
                return Self.replacement
            }
            // A lone low surrogate, as above.
            return Unicode.Scalar(unit) ?? Self.replacement
        default: return nil
        }
    }

    /// What an unpaired surrogate escape (`"\\ud800"`) reads as: U+FFFD, as
    /// WHATWG's UTF-8 encoder writes a lone surrogate.
    static let replacement: Unicode.Scalar = "\u{FFFD}"

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            guard let digit = ASCIIByte.hexValue(byte) else { return nil }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// A number by the JSON grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    ///
    /// With `keepingText`, a number whose literal is not a plain integer that
    /// fits `Int` comes back as `.number(text)`, as written: ids are echoed
    /// byte for byte, so `1e2`, `1.0` and `9223372036854775808` stay what the
    /// client sent. Otherwise a literal beyond `Double`'s range (`1e400`)
    /// reads as the largest finite double of its sign, which no documented
    /// range admits, so the range check names the field.
    mutating func number(keepingText: Bool = false) -> JSONValue? {
        let start = index
        let negative = current == UInt8(ascii: "-")
        if negative { index += 1 }
        guard let first = current, isDigit(first) else { return nil }
        index += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if current != UInt8(ascii: "."), current != UInt8(ascii: "e"), current != UInt8(ascii: "E"),
           let value = integer(bytes[(negative ? start + 1 : start)..<index], negative: negative)
        {
            // What `Int(text)` reads, without making the text.
            return .int(value)
        }
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
        if keepingText { return .number(text) }
        // The grammar was checked above, so only the magnitude can fail to fit.
        guard let parsed = Double(text) else { return nil }
        let double = parsed.isFinite ? parsed : (parsed < 0 ? -Double.greatestFiniteMagnitude : .greatestFiniteMagnitude)
        // An integral double that fits is an integer (`1e2`, `1.0`), as `JSONValue` has always read it.
        if let value = Int(exactly: double) { return .int(value) }
        return .double(double)
    }

    /// The value of `digits` (ASCII digits), negated when `negative`; nil
    /// when it does not fit `Int`.
    private func integer(_ digits: Slice<UnsafeBufferPointer<UInt8>>, negative: Bool) -> Int? {
        var value = 0
        for byte in digits {
            let digit = Int(byte &- UInt8(ascii: "0"))
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            guard !overflowed else { return nil }
            // Built on the negative side when negative, so that `Int.min` fits.
            let (next, overflowedAgain) = negative ? shifted.subtractingReportingOverflow(digit)
                : shifted.addingReportingOverflow(digit)
            guard !overflowedAgain else { return nil }
            value = next
        }
        return value
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
