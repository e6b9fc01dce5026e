extension StringProtocol {
    /// The text without leading and trailing white space (Unicode White_Space:
    /// spaces, tabs, newlines, no-break spaces, …).
    ///
    /// The rules trim every value they read; Foundation's
    /// `trimmingCharacters(in:)` goes through `NSString` on Linux and showed
    /// up in profiles, so this stays in Swift with an ASCII fast path.
    var trimmedWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !Self.isWhitespace($0) }),
            let last = scalars.lastIndex(where: { !Self.isWhitespace($0) })
        else { return "" }
        return String(self[first..<scalars.index(after: last)])
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || (0x09...0x0D).contains(scalar.value) }
        return scalar.properties.isWhitespace
    }
}

extension String {
    /// The text without `character` repeated at either end (`"3600"` → `3600`).
    func trimming(_ character: Character) -> Substring {
        let start = firstIndex { $0 != character } ?? endIndex
        let end = lastIndex { $0 != character }.map(index(after:)) ?? start
        return self[start..<max(start, end)]
    }
}
