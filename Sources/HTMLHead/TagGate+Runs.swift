#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Run copying: what of a chunk is kept goes into the held buffer as whole
/// runs (one copy each), and runs that no byte of can change the state are
/// found with `memchr`.
extension TagGate {
    /// Keeps `bytes[range]` after what is held: it extends the run, or, after
    /// a gap, the run is copied and a new one starts.
    mutating func hold(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        if range.lowerBound != runEnd {
            flushRun(bytes)
            runStart = range.lowerBound
        }
        runEnd = range.upperBound
    }

    /// Copies the run into `pending` (one copy, whatever its length).
    mutating func flushRun(_ bytes: UnsafeRawBufferPointer) {
        if runEnd > runStart { pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[runStart..<runEnd])) }
        runStart = runEnd
    }

    /// Keeps the bytes from `start` that cannot change the state (text up
    /// to a `<`, a quoted value up to its quote, script text up to a `<`),
    /// within the current limit, or drops such a run past a limit; returns
    /// where the run stopped.
    mutating func copyRun(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        // At a tag's `>` (every short tag: `<p>`, `</p>`) the step is all there is.
        if readsTagsWhole, bytes[start] != UInt8(ascii: ">") {
            switch state {
            case .tag, .unquotedValue:
                let end = readTag(bytes, from: start)
                if end > start { return end }
            default:
                break
            }
        }
        if droppingAttributes {
            switch state {
            case .quotedValue(let quote):
                return skip(bytes, from: start, upTo: quote)
            case .tag(afterEquals: false) where tagNameDone:
                // Names and spaces of dropped attributes: only `=` and `>` change anything.
                var index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ">") {
                    index += 1
                }
                return index
            default:
                return start
            }
        }
        if case .tag(afterEquals: false) = state, tagNameDone, attributeNameOpen {
            // The rest of an attribute's name: up to a space, `=`, `/`, `>` or a quote.
            var index = start
            while index < bytes.count, !Self.endsAttributeName(bytes[index]) { index += 1 }
            hold(bytes, start..<index)
            return index
        }
        let stop: UInt8
        var end = bytes.count
        switch state {
        case .quotedValue(let quote) where dropping:
            return skip(bytes, from: start, upTo: quote)
        case .rawText(matched: 0) where dropping:
            return skip(bytes, from: start, upTo: UInt8(ascii: "<"))
        case .comment(dashes: 0) where dropping:
            return skip(bytes, from: start, upTo: UInt8(ascii: "-"))
        case .text where dropping || bodyText.drops:
            if !dropping, bodyText.awaitsFirstText {
                let text = probeFirstText(bytes, from: start)
                // A label: kept from its first letter on.
                if !bodyText.drops { return text }
            }
            return skip(bytes, from: start, upTo: UInt8(ascii: "<"))
        case .text:
            if bodyText.awaitsFirstText { _ = probeFirstText(bytes, from: start) }
            stop = UInt8(ascii: "<")
            end = min(end, start + max(0, Self.textLimit - kept))
        case .quotedValue(let quote) where !dropping:
            stop = quote
            end = min(end, start + max(0, Self.valueLimit - kept))
        case .rawText(matched: 0) where !dropping:
            stop = UInt8(ascii: "<")
            end = min(end, start + max(0, Self.rawTextLimit - kept))
        default:
            return start
        }
        let index = Self.find(stop, in: bytes, from: start, to: end)
        guard index > start else { return start }
        hold(bytes, start..<index)
        kept += index - start
        if case .quotedValue = state, watchesForJSON {
            for position in start..<index where !tagMentionsJSON { matchJSON(bytes[position]) }
        }
        return index
    }

    /// Drops the bytes from `start` up to the next `stop` (or the end), none
    /// of which changes the state; returns where that is.
    func skip(_ bytes: UnsafeRawBufferPointer, from start: Int, upTo stop: UInt8) -> Int {
        Self.find(stop, in: bytes, from: start, to: bytes.count)
    }

    /// The position of the first `stop` in `bytes[start..<end]`, or `end` (memchr: vectorised).
    static func find(_ stop: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        guard start < end, let base = bytes.baseAddress else { return start }
        guard let found = memchr(base + start, Int32(stop), end - start) else { return end }
        return base.distance(to: UnsafeRawPointer(found))
    }

}
