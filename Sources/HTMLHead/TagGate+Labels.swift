import TextTrimming

/// The first text of an element, looked at before the gate drops it: a
/// label run ("Published: March 9, 2021", "By <span>Ann Lee</span>") is
/// often written in an element with no attribute at all, a bare `<span>` or
/// `<li>`, which gives the gate no reason to stop dropping text
/// (`BodyText.tagEnded`). The collector knows such an element only at its
/// first text (`ElementCollector+Labels`), which it never sees once dropped.
///
/// So after every start tag the gate looks at the first bytes of the text
/// that follows (white space skipped): when they start with one of the
/// collector's labels, or a chunk ends too soon to tell, it stops dropping,
/// and says so (`keptLabel`) so that the next chunk keeps going until libxml2
/// has handed that text to the collector. One comparison of a few bytes per
/// element; nothing is kept that does not start like a label.
extension TagGate {
    /// The labels as the gate matches them: the words, the longest one's
    /// length, and which bytes begin one (a first filter, ASCII letters in
    /// either case).
    struct LabelWords {
        let words: [[UInt8]]
        let longest: Int
        private let firstBytes: [Bool]

        init(_ words: [[UInt8]] = []) {
            self.words = words
            longest = words.map(\.count).max() ?? 0
            var first = [Bool](repeating: false, count: 256)
            for word in words {
                guard let byte = word.first else { continue }
                first[Int(byte)] = true
                if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { first[Int(byte - 32)] = true }
            }
            firstBytes = first
        }

        var isEmpty: Bool { words.isEmpty }

        func mayBegin(_ byte: UInt8) -> Bool { firstBytes[Int(byte)] }
    }

    /// The first text after a start tag, from `start` (state `.text`): skips
    /// white space and, at the first other byte, ends the wait
    /// (`awaitsFirstText`); when the text starts with a label, or the chunk
    /// ends within a label's length, stops dropping. Returns where the white
    /// space ended.
    mutating func probeFirstText(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < bytes.count, ByteCursor.isSpace(bytes[index]) { index += 1 }
        // White space only so far: the text is still to come (or a tag is, which ends the wait).
        guard index < bytes.count, bytes[index] != UInt8(ascii: "<") else { return index }
        bodyText.awaitsFirstText = false
        let labels = bodyText.labels
        guard labels.mayBegin(bytes[index]) else { return index }
        let limit = min(bytes.count, index + labels.longest + 1)
        let end = Self.find(UInt8(ascii: "<"), in: bytes, from: index, to: limit)
        let cut = end == bytes.count
        if cut || ElementCollector.startsWithLabel(UnsafeRawBufferPointer(rebasing: bytes[..<end]), from: index,
                                                   labels: labels.words) {
            bodyText.keptLabel = true
            bodyText.drops = false
        }
        return index
    }
}
