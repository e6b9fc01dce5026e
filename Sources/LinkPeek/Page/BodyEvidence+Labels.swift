#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextTrimming

/// A label alone in its element, in the raw body: `<span>By </span>`,
/// `<span>Written by</span> <a …>`, `By <a …>`, `<b>Published:</b>`,
/// `<dt>公開：</dt>`. Templates with hashed class names write a byline or a
/// date so, with no marker the byte search knows; the scanner reads on from
/// such a label into the next element (`ElementCollector+Labels`), so a
/// page whose head gave no author or no date must be parsed there.
///
/// The sign is a `>`, white space, one of the rules' labels
/// (`MetadataRules.bylineRunLabels` while the author is missing,
/// `dateRunLabels` while the date is), then only white space, a colon (or
/// `：`, `&nbsp;`) before the next `<`: a label followed by its own words
/// ("By 2030, the line …") is prose, not a sign. One `memchr` per tag and
/// a byte compare at each; a false sign costs only a parse.
extension BodyEvidence {
    /// The labels looked for, with a table of the bytes that may begin one
    /// (ASCII letters in either case).
    struct LoneLabels {
        let words: [[UInt8]]
        /// Which bytes may begin a label.
        let first: [Bool]
        /// The labels by their first byte (lowercase): a byte that begins
        /// some label is compared with those only.
        let byFirst: [[[UInt8]]]

        init(_ labels: [String]) {
            words = labels.map { Array($0.utf8) }.filter { !$0.isEmpty }
            var first = [Bool](repeating: false, count: 256)
            var byFirst = [[[UInt8]]](repeating: [], count: 256)
            for word in words {
                guard let byte = word.first else { continue }
                first[Int(byte)] = true
                byFirst[Int(byte)].append(word)
                if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { first[Int(byte - 32)] = true }
            }
            self.first = first
            self.byFirst = byFirst
        }

        /// The most bytes a sign spans: `>`, white space, the longest
        /// label, white space and colons, `<`.
        var longestSign: Int { 2 + 2 * BodyEvidence.labelSpaceBytes + (words.map(\.count).max() ?? 0) }
    }

    static let bylineLabels = LoneLabels(MetadataRules.bylineRunLabels)
    static let dateLabels = LoneLabels(MetadataRules.dateRunLabels)
    static let allLabels = LoneLabels(MetadataRules.bylineRunLabels + MetadataRules.dateRunLabels)

    /// The most white space (and colons) looked through on either side of
    /// a label: templates indent a label on its own line.
    static let labelSpaceBytes = 64

    /// Which labels are signs for a page that declared `fields`: credit
    /// prefixes while it gave no author, date labels while it gave no date.
    static func loneLabels(lacking fields: DeclaredFields) -> LoneLabels? {
        switch (fields.contains(.author), fields.contains(.published)) {
        case (true, true): nil
        case (false, true): bylineLabels
        case (true, false): dateLabels
        case (false, false): allLabels
        }
    }

    /// A lone label whose `>` lies at or after `start`. Most `>`s end a
    /// tag that another tag or white space follows: they cost a `memchr`
    /// step and a look at the next bytes through a pointer, no more.
    static func loneLabel(in buffer: UnsafeBufferPointer<UInt8>, from start: Int, labels: LoneLabels) -> Bool {
        guard let base = buffer.baseAddress else { return false }
        let count = buffer.count
        return labels.first.withUnsafeBufferPointer { first in
            var index = start
            while index < count {
                guard let found = memchr(base + index, Int32(UInt8(ascii: ">")), count - index) else { return false }
                index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found)) + 1
                var at = index
                let spaceEnd = min(count, index + labelSpaceBytes)
                while at < spaceEnd, isSpace(base[at]) { at += 1 }
                guard at < count, first[Int(base[at])] else { continue }
                if labelFollows(in: buffer, at: at, words: labels.byFirst[Int(ASCIIByte.lowercased(base[at]))]) {
                    return true
                }
            }
            return false
        }
    }

    /// True when the text at `at` is one of `words`, alone up to the next `<`.
    private static func labelFollows(in buffer: UnsafeBufferPointer<UInt8>, at: Int, words: [[UInt8]]) -> Bool {
        for word in words where at + word.count <= buffer.count {
            guard word.indices.allSatisfy({ ASCIIByte.lowercased(buffer[at + $0]) == word[$0] }) else { continue }
            if closesAfterSpace(in: buffer, at: at + word.count) { return true }
        }
        return false
    }

    /// True when only white space, colons and no-break spaces come between
    /// `index` and a `<`.
    private static func closesAfterSpace(in buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        var at = index
        let end = min(buffer.count, index + labelSpaceBytes)
        while at < end {
            let byte = buffer[at]
            if byte == UInt8(ascii: "<") { return true }
            if isSpace(byte) || byte == UInt8(ascii: ":") {
                at += 1
            } else if starts(buffer, at, with: fullWidthColon) {
                at += fullWidthColon.count
            } else if starts(buffer, at, with: noBreakSpace) {
                at += noBreakSpace.count
            } else if starts(buffer, at, with: noBreakSpaceEntity) {
                at += noBreakSpaceEntity.count
            } else {
                return false
            }
        }
        return false
    }

    private static let fullWidthColon: [UInt8] = [0xEF, 0xBC, 0x9A]
    private static let noBreakSpace: [UInt8] = [0xC2, 0xA0]
    private static let noBreakSpaceEntity = Array("&nbsp;".utf8)

    private static func starts(_ buffer: UnsafeBufferPointer<UInt8>, _ index: Int, with bytes: [UInt8]) -> Bool {
        index + bytes.count <= buffer.count && bytes.indices.allSatisfy { buffer[index + $0] == bytes[$0] }
    }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || (byte >= 0x09 && byte <= 0x0D)
    }
}
