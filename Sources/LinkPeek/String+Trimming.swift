// Trimming in Swift rather than Foundation's `trimmingCharacters(in:)`:
// that goes through `NSString` on Linux and showed up in profiles, and it
// lives in full Foundation, which the daemon does not load (about 6 MB of
// resident memory saved). The sets below are the ones Foundation used.

extension StringProtocol {
    /// The text without leading and trailing white space (Unicode White_Space:
    /// spaces, tabs, newlines, no-break spaces, …; `.whitespacesAndNewlines`).
    var trimmedWhitespace: String {
        trimmingScalars(where: Self.isWhitespace)
    }

    /// The text without leading and trailing spaces and tabs, newlines kept
    /// (`CharacterSet.whitespaces`: tab and the Unicode space separators).
    var trimmedSpaces: String {
        trimmingScalars(where: Self.isSpace)
    }

    /// The text without the scalars matching `trimmed` at either end.
    func trimmingScalars(where trimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !trimmed($0) }),
            let last = scalars.lastIndex(where: { !trimmed($0) })
        else { return "" }
        return String(self[first..<scalars.index(after: last)])
    }

    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" }
        return scalar.properties.generalCategory == .spaceSeparator
    }
}
