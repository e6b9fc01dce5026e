extension JSONWriter {
    /// Compact JSON (as `JSONWriter` writes it: no white space outside
    /// strings) laid out over lines the way `JSONEncoder`'s `.prettyPrinted`
    /// does: two spaces a level, `"key" : value`, and an empty array or
    /// object as its brackets around a blank line. For people (`--pretty`,
    /// a tape's index), so a walk over the bytes, not a second writer.
    public static func indented(_ compact: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(compact.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        func newline() {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
        }
        for (index, byte) in compact.enumerated() {
            if inString {
                out.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                out.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                out.append(byte)
                depth += 1
                let next = index + 1 < compact.count ? compact[index + 1] : 0
                if next == UInt8(ascii: "}") || next == UInt8(ascii: "]") { out.append(0x0A) } else { newline() }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                newline()
                out.append(byte)
            case UInt8(ascii: ","):
                out.append(byte)
                newline()
            case UInt8(ascii: ":"):
                out.append(contentsOf: [UInt8(ascii: " "), byte, UInt8(ascii: " ")])
            default:
                out.append(byte)
            }
        }
        return out
    }
}
