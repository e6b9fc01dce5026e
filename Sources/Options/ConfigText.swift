/// Checks on a configuration file's bytes before the TOML parser sees them,
/// so that no file can stop the process there: toml++ recurses per nesting
/// level and reads C strings, so a file is refused unless it is at most
/// `maxBytes`, valid UTF-8 without control characters (TOML allows none
/// but tab, LF and CR), and nests brackets and braces
/// at most `maxDepth` deep. Three shapes on which toml++ asserts (its
/// assertions are on in every build, and stop the process) are refused
/// with a sentence: a date with no hour after its `T`, a table header
/// with no key after its `[`, and a `}` where an array's value should be.
enum ConfigText {
    static let maxBytes = 1 << 20
    static let maxDepth = 16

    /// The text, or why it is refused (with the line, when there is one).
    struct Refusal: Error {
        let line: Int
        let message: String
    }

    static func check(_ bytes: [UInt8]) -> Result<String, Refusal> {
        guard bytes.count <= maxBytes else {
            return .failure(Refusal(line: 0, message: "is \(bytes.count) bytes; a configuration file may have at most \(maxBytes)"))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(Refusal(line: 0, message: "is not valid UTF-8, which TOML requires"))
        }
        var line = 1
        var depth = 0
        // The quote of the string being read, and whether it is a
        // multi-line one (`"""`, `'''`), which goes on past line ends.
        var quote: UInt8? = nil
        var multiline = false
        var escaped = false
        var comment = false
        // Quotes of a multi-line string's end still to pass over.
        var skip = 0
        // The two bytes before this one, outside strings and comments.
        var previous: (UInt8, UInt8) = (0, 0)
        // The last byte outside strings and comments that is not a blank or a line end.
        var significant: UInt8 = 0
        // Only blanks so far on this line (a byte-order mark counts as none).
        var lineStart = true
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for index in start..<bytes.count {
            let byte = bytes[index]
            // TOML allows no control character but tab, LF and CR, in
            // strings or out; toml++ asserts on some of them (`[` then U+001A).
            if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F {
                let code = String(byte, radix: 16, uppercase: true)
                return .failure(Refusal(
                    line: line, message: "has the control character U+\(String(repeating: "0", count: 4 - code.count))\(code), which TOML does not allow"))
            }
            if skip > 0 {
                skip -= 1
                continue
            }
            if byte == 0x0A {
                line += 1
                lineStart = true
                comment = false
                escaped = false
                // A one-line string ends at the line's end (the parser says it is not closed).
                if !multiline { quote = nil }
                continue
            }
            if comment { continue }
            if lineStart, byte != 0x20, byte != 0x09 {
                lineStart = false
                if quote == nil, byte == 0x5B, depth == 0, !headerNamesAKey(bytes, at: index) {
                    return .failure(Refusal(
                        line: line, message: "has a table header with no name after its [, which TOML does not allow"))
                }
            }
            if let open = quote {
                if escaped {
                    escaped = false
                } else if byte == 0x5C && open == 0x22 {
                    escaped = true
                } else if byte == open {
                    if !multiline {
                        quote = nil
                    } else if index + 2 < bytes.count, bytes[index + 1] == open, bytes[index + 2] == open {
                        // Three quotes end it; up to two more before them are its own.
                        var end = index + 3
                        while end < bytes.count, end - index < 5, bytes[end] == open { end += 1 }
                        skip = end - index - 1
                        quote = nil
                        multiline = false
                    }
                }
                continue
            }
            // toml++ asserts on a date whose `T` is followed by something
            // other than a digit when its value goes on to a `:` or is a quote
            // (`1979-05-27T:`, `1979-05-27Tx7:32`), which no valid TOML has outside a string.
            if previous.1 == 0x54 || previous.1 == 0x74, previous.0 >= 0x30 && previous.0 <= 0x39,
                byte < 0x30 || byte > 0x39, byte == 0x22 || byte == 0x27 || colonInValue(bytes, from: index)
            {
                return .failure(Refusal(line: line, message: "has a date and time with no hour after its T, which TOML does not allow"))
            }
            // And on a `}` where an array's value should be (`a = [}`, `[1,\n}`);
            // after a `,` in an inline table it is an error all the same.
            if byte == 0x7D, significant == 0x5B || significant == 0x2C {
                return .failure(Refusal(line: line, message: "has a } where a value should be, which TOML does not allow"))
            }
            previous = (previous.1, byte)
            if byte != 0x20, byte != 0x09, byte != 0x0D, byte != 0x23 { significant = byte }
            switch byte {
            case 0x22, 0x27:
                quote = byte
                if index + 2 < bytes.count, bytes[index + 1] == byte, bytes[index + 2] == byte {
                    multiline = true
                    skip = 2
                }
            case 0x23: comment = true
            case 0x5B, 0x7B:
                depth += 1
                if depth > maxDepth { return .failure(Refusal(line: line, message: "nests arrays or tables more than \(maxDepth) deep")) }
            case 0x5D, 0x7D: depth = max(0, depth - 1)
            default: break
            }
        }
        return .success(text)
    }

    /// Whether a `:` comes at `index` or after it in the same value, as far
    /// as toml++ reads ahead to tell a value's type (127 characters).
    static func colonInValue(_ bytes: [UInt8], from index: Int) -> Bool {
        var next = index
        while next < bytes.count, next - index < 128 {
            switch bytes[next] {
            case 0x3A: return true
            case 0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x5D, 0x7D, 0x23: return false
            default: next += 1
            }
        }
        return false
    }

    /// Whether the table header opening at `index` (`[` or `[[`, then
    /// blanks) goes on with what can start a key or close the header, or
    /// ends the file: toml++ asserts, stopping the process, on anything
    /// else (`[=a]`, a `[` alone on a line). `[ [` is left to the parser,
    /// which says its brackets must be contiguous.
    static func headerNamesAKey(_ bytes: [UInt8], at index: Int) -> Bool {
        var next = index + 1
        let double = next < bytes.count && bytes[next] == 0x5B
        if double { next += 1 }
        let blanksFrom = next
        while next < bytes.count, bytes[next] == 0x20 || bytes[next] == 0x09 { next += 1 }
        guard next < bytes.count else { return true }
        let byte = bytes[next]
        if byte == 0x5B, !double, next > blanksFrom { return true }
        // A control character is refused as such when the check reaches it.
        if (byte < 0x20 && byte != 0x0A && byte != 0x0D) || byte == 0x7F { return true }
        return (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x5F || byte == 0x2D || byte == 0x22 || byte == 0x27 || byte == 0x5D
    }
}
