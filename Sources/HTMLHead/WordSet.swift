/// Lowercase words looked for anywhere in a C string, ignoring ASCII case,
/// in one pass: only at a byte that begins one of the words (a bit per byte
/// value) are the words compared. Every body `<a>` and every body element
/// with a `class` is tested this way (`ElementCollector.FallbackLimits`);
/// one pass over the value per word was 2% of a fetch's CPU.
struct WordSet: Sendable, Equatable {
    let words: [[UInt8]]
    /// Bit `b` of word `b >> 6` is set when some word begins with byte `b`.
    private var initials: [UInt64] = [0, 0, 0, 0]
    /// True when a word is empty: it occurs in every value.
    private var hasEmpty = false

    /// `words` must be lowercase (ASCII case is folded on the value's side only).
    init(_ words: [[UInt8]]) {
        self.words = words
        for word in words {
            guard let first = word.first else {
                hasEmpty = true
                continue
            }
            initials[Int(first >> 6)] |= 1 << UInt64(first & 63)
        }
    }

    var isEmpty: Bool { words.isEmpty }

    /// True when one of the words occurs in the NUL-terminated `value`.
    func occurs(in value: UnsafePointer<UInt8>) -> Bool {
        if hasEmpty { return true }
        var cursor = value
        while cursor.pointee != 0 {
            let byte = ByteCursor.lower(cursor.pointee)
            if initials[Int(byte >> 6)] & (1 << UInt64(byte & 63)) != 0 {
                for word in words where word[0] == byte && WordSet.matches(word, at: cursor) { return true }
            }
            cursor += 1
        }
        return false
    }

    /// Whether `word` is written at `cursor` (its first byte already matched),
    /// ignoring ASCII case; never reads past the value's NUL.
    private static func matches(_ word: [UInt8], at cursor: UnsafePointer<UInt8>) -> Bool {
        var offset = 1
        while offset < word.count {
            let byte = cursor[offset]
            guard byte != 0, ByteCursor.lower(byte) == word[offset] else { return false }
            offset += 1
        }
        return true
    }
}
