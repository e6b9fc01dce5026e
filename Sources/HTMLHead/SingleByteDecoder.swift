/// windows-1252 and x-user-defined, decoded in Swift: both map every byte to
/// one code point, so a table and a UTF-8 encoder are all it takes.
struct SingleByteDecoder {
    enum Table { case windows1252, userDefined }

    let table: Table
    private var output: [UInt8] = []

    init(table: Table) {
        self.table = table
    }

    /// Code points for bytes 0x80...0x9F in windows-1252 (the rest of the
    /// upper half is Latin-1). Five bytes map to C1 controls, as in WHATWG.
    private static let windows1252High: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    mutating func decode(_ input: UnsafeRawBufferPointer, _ sink: (UnsafeRawBufferPointer) -> Void) {
        // Pure ASCII (the usual head) goes through untouched.
        if !input.contains(where: { $0 == 0 || $0 >= 0x80 }) {
            if !input.isEmpty { sink(input) }
            return
        }
        output.removeAll(keepingCapacity: true)
        output.reserveCapacity(input.count * 3)
        for byte in input {
            let scalar: UInt32
            switch byte {
            case 0: scalar = 0xFFFD  // NUL would stall libxml2's push parser.
            case 0x01..<0x80: scalar = UInt32(byte)
            case 0x80..<0xA0 where table == .windows1252: scalar = UInt32(SingleByteDecoder.windows1252High[Int(byte - 0x80)])
            default: scalar = table == .windows1252 ? UInt32(byte) : 0xF780 + UInt32(byte - 0x80)
            }
            SingleByteDecoder.appendUTF8(scalar, to: &output)
        }
        output.withUnsafeBytes(sink)
    }

    @inline(__always)
    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case ..<0x80:
            output.append(UInt8(scalar))
        case ..<0x800:
            output.append(UInt8(0xC0 | (scalar >> 6)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            output.append(UInt8(0xE0 | (scalar >> 12)))
            output.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
