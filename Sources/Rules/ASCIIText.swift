import TextTrimming

/// Quick tests on UTF-8 bytes that give what the rules' `Character`
/// searches give, or rule them out, without grapheme breaking and without
/// the regex library's generic search (a table per call): the rules ask
/// them of classes, ids, URLs and keys on every recorded element.
///
/// On text that is all ASCII, `lowercased()` folds only A–Z and every
/// `Character` is one byte except CR LF, which no needle here starts or
/// ends inside (none starts with LF or ends with CR): there the byte
/// answer is the `Character` answer. Other text goes the `Character` way,
/// at each call site.
enum ASCIIText {
    /// Whether `text` is all ASCII.
    static func isASCII(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Whether ASCII `text` holds `needle` (lowercase ASCII) with `text`'s
    /// letters in any case: `text.lowercased().contains(needle)`.
    static func contains(_ text: String, _ needle: StaticString) -> Bool {
        needle.withUTF8Buffer { contains(text, $0) }
    }

    /// The same, for needles held in lists of `String`.
    static func contains(_ text: String, _ needle: String) -> Bool {
        var needle = needle
        return needle.withUTF8 { contains(text, $0) }
    }

    private static func contains(_ text: String, _ pattern: UnsafeBufferPointer<UInt8>) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            ASCIIByte.firstIndex(of: pattern, in: bytes, from: 0) != nil
        }
    }

    /// Whether ASCII `text` starts with `prefix` with `text`'s letters in
    /// any case: `text.lowercased().hasPrefix(prefix)`, false for a prefix
    /// that is not lowercase ASCII (ASCII text cannot start with it).
    static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        var prefix = prefix
        return prefix.withUTF8 { pattern in
            guard pattern.allSatisfy({ $0 < 0x80 && !ASCIIByte.isUppercase($0) }) else { return false }
            var text = text
            return text.withUTF8 { bytes in
                bytes.count >= pattern.count && ASCIIByte.matches(pattern, in: bytes, at: 0)
            }
        }
    }

    /// Whether `text`'s bytes start with `prefix` (lowercase ASCII) with
    /// ASCII letters in any case, whatever else `text` holds: a quick test
    /// that rules out `lowercased().hasPrefix(prefix)` when false (for a
    /// prefix of letters no other character lowers to, and no `K`).
    static func hasPrefix(_ text: String, bytes prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { pattern in
            var text = text
            return text.withUTF8 { bytes in
                bytes.count >= pattern.count && ASCIIByte.matches(pattern, in: bytes, at: 0)
            }
        }
    }

    /// Whether `text`'s UTF-8 holds `piece`'s, byte for byte. When false,
    /// `text.firstRange(of: piece)` is nil for a piece whose characters no
    /// other is canonically equivalent to (not `;`, `` ` ``, `K`, `·`, …):
    /// a quick way to skip that search, which builds a table per call.
    static func holdsBytes(_ text: String, _ piece: String) -> Bool {
        var piece = piece
        return piece.withUTF8 { pattern in
            guard !pattern.isEmpty else { return true }
            var text = text
            return text.withUTF8 { bytes in standsAsBytes(pattern, in: bytes) }
        }
    }

    /// False only when `text` cannot hold `piece` as the `Character`
    /// searches (`firstRange(of:)`, `split(separator:)`: character by
    /// character, canonically equivalent) find it; true when it may.
    ///
    /// Bytes decide where no other character can stand for the piece's:
    /// for a piece of ASCII other than `;`, `` ` `` and `K` in any text,
    /// and for any piece in ASCII text (no combining mark, and the only
    /// characters canonically equivalent to ASCII, U+037E, U+1FEF and
    /// U+212A, are not ASCII themselves): there an ASCII piece stands only
    /// where its bytes do, and a piece with any other non-ASCII character
    /// stands nowhere. Elsewhere the answer is true (the search decides).
    static func mayHold(_ text: String, _ piece: String) -> Bool {
        var piece = piece
        return piece.withUTF8 { needle in
            guard !needle.isEmpty else { return true }
            var needleIsASCII = true, needleIsPlain = true
            for byte in needle {
                if byte >= 0x80 {
                    needleIsASCII = false
                } else if byte == UInt8(ascii: ";") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "K") {
                    needleIsPlain = false
                }
            }
            var text = text
            return text.withUTF8 { bytes in
                if needleIsASCII && needleIsPlain { return standsAsBytes(needle, in: bytes) }
                guard !bytes.contains(where: { $0 >= 0x80 }) else { return true }
                if needleIsASCII { return standsAsBytes(needle, in: bytes) }
                return standsForASCII(needle)
            }
        }
    }

    /// Whether `needle` stands in `bytes`, byte for byte.
    private static func standsAsBytes(_ needle: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var index = 0
        while index <= bytes.count - needle.count {
            if bytes[index] == first {
                var offset = 1
                while offset < needle.count, bytes[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }

    /// `text.contains(piece)`, the `Character` search (character by
    /// character, canonically equivalent), which builds a searcher per call
    /// (some 20,000 instructions, even on an empty text). Bytes give the
    /// answer when both are ASCII and `piece` neither starts with LF nor
    /// ends with CR (every ASCII character is one byte but CR LF, and no
    /// other character is equivalent to ASCII in ASCII text); `mayHold`
    /// rules it out elsewhere; what is left goes the `Character` way.
    static func holds(_ text: String, _ piece: String) -> Bool {
        var text = text, piece = piece
        let decided: Bool? = piece.withUTF8 { needle in
            guard let first = needle.first, let last = needle.last, first != 0x0A, last != 0x0D,
                  !needle.contains(where: { $0 >= 0x80 }) else { return nil }
            return text.withUTF8 { bytes in
                bytes.contains(where: { $0 >= 0x80 }) ? nil : standsAsBytes(needle, in: bytes)
            }
        }
        if let decided { return decided }
        return mayHold(text, piece) && text.contains(piece)
    }

    /// Whether UTF-8 `needle` holds a scalar canonically equivalent to an
    /// ASCII one (U+037E, U+1FEF, U+212A): then ASCII text may hold it.
    private static func standsForASCII(_ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        var bytes = needle[...]
        for equivalent: [UInt8] in [[0xCD, 0xBE], [0xE1, 0xBF, 0xAF], [0xE2, 0x84, 0xAA]] {
            while let index = bytes.firstIndex(of: equivalent[0]) {
                if bytes[index...].starts(with: equivalent) { return true }
                bytes = bytes[(index + 1)...]
            }
            bytes = needle[...]
        }
        return false
    }

    /// The runs of letters of ASCII `text`, lowercased, in order:
    /// `text.lowercased().split { !$0.isLetter }`; nil for other text.
    static func lowercasedLetterRuns(_ text: String) -> [String]? {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            var runs: [String] = []
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, ASCIIByte.isLetter(bytes[end]) { end += 1 }
                if end > start {
                    runs.append(String(unsafeUninitializedCapacity: end - start) { buffer in
                        for offset in 0..<(end - start) { buffer[offset] = ASCIIByte.lowercased(bytes[start + offset]) }
                        return end - start
                    })
                }
                start = end + 1
            }
            return runs
        }
    }

    /// The letters and digits of ASCII `text`, lowercased, as
    /// `MetadataRules.foldedName` folds ASCII; nil for other text.
    static func foldedAlphanumerics(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                var count = 0
                for byte in bytes where isAlphanumeric(byte) {
                    buffer[count] = ASCIIByte.lowercased(byte)
                    count += 1
                }
                return count
            }
        }
    }

    /// Whether `text`'s UTF-8 starts with `prefix`'s, byte for byte.
    static func startsWithBytes(_ text: String, _ prefix: String) -> Bool {
        var prefix = prefix
        return prefix.withUTF8 { pattern in
            var text = text
            return text.withUTF8 { bytes in
                guard bytes.count >= pattern.count else { return false }
                for offset in 0..<pattern.count where bytes[offset] != pattern[offset] { return false }
                return true
            }
        }
    }

    /// Whether `text`'s UTF-8 holds `byte` (on the buffer: the generic
    /// search of `String.UTF8View` cost some ten instructions a byte).
    static func holds(_ text: String, byte: UInt8) -> Bool {
        var text = text
        return text.withUTF8 { $0.contains(byte) }
    }

    /// Whether `text` has at least `count` characters: `text.count >=
    /// count`, without walking a long text's every grapheme (a character
    /// is at least one byte).
    static func hasCharacters(_ text: String, atLeast count: Int) -> Bool {
        text.utf8.count >= count && text.prefix(count).count == count
    }

    /// Whether ASCII `text`, cut at every byte that is neither an ASCII
    /// letter nor a digit, has a piece that is `token` (lowercase ASCII)
    /// with letters in any case: `text.lowercased().split { !$0.isLetter
    /// && !$0.isNumber }.contains(token)`.
    static func hasToken(_ text: String, _ token: String) -> Bool {
        var token = token
        return token.withUTF8 { pattern in
            var text = text
            return text.withUTF8 { bytes in
                guard !pattern.isEmpty else { return false }
                var start = 0
                while start < bytes.count {
                    var end = start
                    while end < bytes.count, isAlphanumeric(bytes[end]) { end += 1 }
                    if end - start == pattern.count, ASCIIByte.matches(pattern, in: bytes, at: start) { return true }
                    start = end + 1
                }
                return false
            }
        }
    }

    /// Whether `text` has `count` ASCII digit characters in a row, decided
    /// on bytes: false when no `count` digit bytes stand in a row (each
    /// such character is one byte); true at the first such run with ASCII
    /// (or nothing) on both sides, where every digit is a character of its
    /// own; nil when a run has other text beside it (a combining mark after
    /// the last digit, a prepended sign before the first, may join them).
    static func hasDigitRun(_ text: String, of count: Int) -> Bool? {
        var text = text
        return text.withUTF8 { bytes in
            var run = 0, undecided = false
            for index in 0..<bytes.count {
                run = (bytes[index] &- UInt8(ascii: "0")) < 10 ? run + 1 : 0
                guard run >= count else { continue }
                let start = index + 1 - count
                let before = start == 0 || bytes[start - 1] < 0x80
                let after = index + 1 == bytes.count || bytes[index + 1] < 0x80
                if before && after { return true }
                undecided = true
            }
            return undecided ? nil : false
        }
    }

    /// The ASCII digits and the letters of ASCII `text`, counted on bytes:
    /// `filter(\.isASCIIDigit).count` and `filter(\.isLetter).count`
    /// (in ASCII every character is one byte but CR LF, neither); nil for other text.
    static func digitsAndLetters(_ text: String) -> (digits: Int, letters: Int)? {
        var text = text
        return text.withUTF8 { bytes in
            var digits = 0, letters = 0
            for byte in bytes {
                if byte >= 0x80 { return nil }
                if (byte &- UInt8(ascii: "0")) < 10 { digits += 1 } else if ASCIIByte.isLetter(byte) { letters += 1 }
            }
            return (digits, letters)
        }
    }

    /// An ASCII letter or digit (what `isLetter` or `isNumber` is true for
    /// among ASCII characters).
    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        ASCIIByte.isLetter(byte) || (byte &- UInt8(ascii: "0")) < 10
    }
}
