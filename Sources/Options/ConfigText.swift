/// Checks on a configuration file's bytes before the TOML parser sees them,
/// so that no file can stop the process there: toml++ recurses per nesting
/// level and reads C strings, so a file is refused unless it is at most
/// `maxBytes`, valid UTF-8 without control characters (TOML allows none
/// but tab, LF and CR), and nests brackets and braces
/// at most `maxDepth` deep.
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
        var quote: UInt8? = nil
        var escaped = false
        var comment = false
        // The two bytes before this one, outside strings and comments.
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in bytes {
            // TOML allows no control character but tab, LF and CR, in
            // strings or out; toml++ asserts on some of them (`[` then U+001A).
            if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F {
                let code = String(byte, radix: 16, uppercase: true)
                return .failure(Refusal(
                    line: line, message: "has the control character U+\(String(repeating: "0", count: 4 - code.count))\(code), which TOML does not allow"))
            }
            if byte == 0x0A {
                line += 1
                comment = false
                // Multi-line strings are counted as if they closed at the line end:
                // the count only has to be an upper bound of the nesting.
                quote = nil
                continue
            }
            if comment { continue }
            if let open = quote {
                if escaped { escaped = false } else if byte == 0x5C && open == 0x22 { escaped = true } else if byte == open { quote = nil }
                continue
            }
            // toml++ asserts on a date whose `T` is followed by `:` or a quote
            // (`1979-05-27T:`), which no valid TOML has outside a string.
            if byte == 0x3A || byte == 0x22 || byte == 0x27, previous.1 == 0x54 || previous.1 == 0x74,
                previous.0 >= 0x30 && previous.0 <= 0x39 {
                return .failure(Refusal(line: line, message: "has a date and time with no hour after its T, which TOML does not allow"))
            }
            previous = (previous.1, byte)
            switch byte {
            case 0x22, 0x27: quote = byte
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
}
