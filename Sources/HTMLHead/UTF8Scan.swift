/// UTF-8 validation on raw bytes, following the well-formed byte sequences
/// of the Unicode Standard (table 3-7): no overlongs, no surrogates, nothing
/// above U+10FFFF.
enum UTF8Scan {
    /// Classifies the sequence starting at `index`:
    /// - a positive value is the length of a valid sequence there;
    /// - zero means the bytes are a valid start cut off by the end of the buffer;
    /// - a negative value `-n` means invalid: the maximal subpart to replace
    ///   with one U+FFFD is `n` bytes long (the WHATWG decoder's behaviour).
    @inline(__always)
    static func classify(_ buffer: UnsafeRawBufferPointer, at index: Int) -> Int {
        let lead = buffer[index]
        if lead < 0x80 { return 1 }
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return -1
        }
        var offset = 1
        while offset < length {
            guard index + offset < buffer.count else { return 0 }
            let byte = buffer[index + offset]
            guard byte >= low, byte <= high else { return -offset }
            low = 0x80
            high = 0xBF
            offset += 1
        }
        return length
    }
}
