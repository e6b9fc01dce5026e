/// ASCII letters on UTF-8 bytes: the one case fold for tag names, header
/// tokens, markers and keywords that hot paths compare as bytes. Only A–Z
/// fold; every other byte (digits, punctuation, UTF-8 sequences) is itself.
public enum ASCIIByte {
    /// The value of an ASCII hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`),
    /// nil for any other byte: percent-encoding and JSON `\u` escapes.
    @inlinable
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `byte` with an ASCII capital letter made small.
    @inlinable
    public static func lowercased(_ byte: UInt8) -> UInt8 {
        isUppercase(byte) ? byte | 0x20 : byte
    }

    /// Whether `byte` is an ASCII capital letter (what `lowercased` changes).
    @inlinable
    public static func isUppercase(_ byte: UInt8) -> Bool {
        byte &- 0x41 < 26
    }

    /// Whether `byte` is an ASCII letter, either case.
    @inlinable
    public static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- 0x61 < 26
    }

    /// Whether `needle` (lowercase ASCII) stands in `bytes` at `index`, the
    /// bytes' ASCII letters in any case.
    @inlinable
    public static func matches<Bytes: RandomAccessCollection>(_ needle: some Collection<UInt8>, in bytes: Bytes,
                                                                at index: Bytes.Index) -> Bool
    where Bytes.Element == UInt8 {
        var position = index
        for expected in needle {
            guard position != bytes.endIndex, lowercased(bytes[position]) == expected else { return false }
            bytes.formIndex(after: &position)
        }
        return true
    }

    /// Where `needle` (lowercase ASCII) first stands in `bytes` at or after
    /// `start`, the bytes' ASCII letters in any case; nil when nowhere.
    @inlinable
    public static func firstIndex<Bytes: RandomAccessCollection>(of needle: some Collection<UInt8>, in bytes: Bytes,
                                                                   from start: Bytes.Index) -> Bytes.Index?
    where Bytes.Element == UInt8 {
        guard let first = needle.first else { return start }
        let count = needle.count
        guard bytes.distance(from: start, to: bytes.endIndex) >= count else { return nil }
        let last = bytes.index(bytes.endIndex, offsetBy: -count)
        var index = start
        while index <= last {
            if lowercased(bytes[index]) == first, matches(needle, in: bytes, at: index) { return index }
            bytes.formIndex(after: &index)
        }
        return nil
    }
}
