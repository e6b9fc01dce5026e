/// White space on UTF-8 bytes, for hot paths that look at bytes before (or
/// instead of) making a `String`.
public enum WhiteSpaceByte {
    /// Space, tab, line feed, vertical tab, form feed, carriage return: the
    /// ASCII part of Unicode White_Space (what `trimmedWhitespace` trims, and
    /// what `Character.isWhitespace` is true for among ASCII characters).
    @inlinable
    public static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }
}
