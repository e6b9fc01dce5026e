// The one place white space is trimmed, for every target (Curl, HTMLHead,
// LinkPeek, the command). In Swift rather than Foundation's
// `trimmingCharacters(in:)`: that goes through `NSString` on Linux and showed
// up in profiles, and it lives in full Foundation, which the daemon does not
// load (about 6 MB of resident memory saved). The sets below are the ones
// Foundation used, plus the HTML standard's ASCII white space.
//
// Byte-level trimming on hot paths (curl's header lines, the tag scanner)
// stays on bytes where it runs; this is for `String`s (`WhiteSpaceByte` is
// the byte predicate that matches `trimmedWhitespace`).

extension StringProtocol {
    /// The text without leading and trailing white space (Unicode White_Space:
    /// spaces, tabs, newlines, no-break spaces, …; `.whitespacesAndNewlines`).
    public var trimmedWhitespace: String {
        trimmingScalars(where: Self.isWhitespace)
    }

    /// The text without leading and trailing spaces and tabs, newlines kept
    /// (`CharacterSet.whitespaces`: tab and the Unicode space separators).
    public var trimmedSpaces: String {
        trimmingScalars(where: Self.isSpace)
    }

    /// The text without leading and trailing ASCII white space as the HTML
    /// standard defines it (tab, LF, FF, CR, space): for labels and header
    /// parameters, where a no-break space is not white space.
    public var trimmedASCIIWhitespace: String {
        trimmingScalars(where: Self.isASCIIWhitespace)
    }

    /// The text without the scalars matching `trimmed` at either end.
    public func trimmingScalars(where trimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }),
            let last = scalars.lastIndex(where: { !trimmed($0) })
        else { return "" }
        return String(self[first..<scalars.index(after: last)])
    }

    public static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace
    }

    public static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" }
        return scalar.properties.generalCategory == .spaceSeparator
    }

    public static func isASCIIWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\u{0C}" || scalar == "\r"
    }
}
