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

    /// Space, tab, line feed, form feed, carriage return: WHATWG's "ASCII
    /// whitespace", what HTML (and the MIME sniffing standard) skip between
    /// tokens; unlike `isWhitespace`, not vertical tab.
    @inlinable
    public static func isHTMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}
