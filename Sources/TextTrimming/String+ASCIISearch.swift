// Searching header values and other protocol text on its UTF-8 bytes.

extension StringProtocol {
    /// Whether the text holds `word` (lowercase ASCII) with ASCII letters in
    /// any case ("UTF-16" in a Content-Type, "Close" in a Connection header).
    /// On the bytes: `String.contains` of a string goes through the regex
    /// library's generic search, a cost where it runs for every page.
    public func containsIgnoringASCIICase(_ word: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        let bytes = Array(utf8)
        return ASCIIByte.firstIndex(of: needle, in: bytes, from: 0) != nil
    }
}
