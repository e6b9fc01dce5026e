import HTMLHead

/// Looks in a page's raw body bytes, without parsing them, for signs that a
/// field the head left out is still coming: a byline or author word
/// (`class="author"`, `rel=author`, `/author/ann`, a JSON `"author"`,
/// `class="writer"`), microdata (`itemprop`), JSON-LD (`ld+json`), a
/// `<time>`, a date attribute (`data-timestamp`, `data-time`,
/// `data-origindate`), an `<audio>` or `<video>` player, or a link to an
/// audio or video file.
///
/// The fetch holds the body bytes after a head that gave the main fields and
/// parses them only once one of these shows (`PageConsumer`): a page whose
/// body holds none reads its budget at the cost of a byte search, not of a
/// parse. A false sign only costs that parse.
///
/// The words are the rules' own (`MetadataRules.bylineMarkers` and the media
/// file extensions), matched in place: byline words without their first
/// letter, which pages write in either case (`Author`, `author`).
struct BodyEvidence {
    /// Where the next search starts, in the bytes given to `search`.
    private var searched = 0

    static let markers: [[UInt8]] = {
        let bylines = (MetadataRules.bylineMarkers + Self.laterBylineWords).map { String($0.dropFirst()) }
        let media = (MetadataRules.audioFileExtensions + MetadataRules.videoFileExtensions).map { "." + $0 }
        let structured = ["itemprop", "ld+json", "<time", "<audio", "<video"] + Self.dateAttributePrefixes
        return (bylines + structured + media).map { Array($0.utf8) }.filter { !$0.isEmpty }
    }()

    /// Byline words the rules read as a whole token only (`class="writer"`,
    /// `writer-name`): a sign here, where a false one only costs a parse.
    static let laterBylineWords = ["writer"]

    /// Attributes templates put a date in on any element (epoch seconds or
    /// milliseconds, or a date string): `data-time` also begins
    /// `data-timestamp`.
    static let dateAttributePrefixes = ["data-time", "data-origindate"]

    private static let longest = markers.map(\.count).max() ?? 1
    static let shortest = markers.map(\.count).min() ?? 1

    /// The search's skip table (after Wu and Manber): for each pair of
    /// bytes, how far a window of `shortest` bytes ending in that pair may
    /// move on without passing the start of any marker. A pair that ends
    /// the first `shortest` bytes of some marker gives 0: the position is
    /// compared with the markers. Most pairs of body text begin no marker,
    /// so the window moves `shortest - 1` bytes at a time, and each step
    /// costs one table look-up.
    static let shifts: [UInt8] = {
        let window = max(shortest, 2)
        var table = [UInt8](repeating: UInt8(clamping: window - 1), count: 1 << 16)
        for marker in markers where marker.count >= window {
            for offset in 0...(window - 2) {
                let pair = Int(marker[offset]) | Int(marker[offset + 1]) << 8
                table[pair] = min(table[pair], UInt8(clamping: window - 2 - offset))
            }
        }
        return table
    }()

    /// True when `bytes` (the held body so far, which only ever grows)
    /// holds a marker; each call looks only at what is new, plus enough of
    /// the end before it for a marker split across two chunks.
    mutating func search(_ bytes: [UInt8]) -> Bool {
        let start = max(0, searched - (Self.longest - 1))
        searched = bytes.count
        return bytes.withUnsafeBufferPointer { buffer in
            guard buffer.baseAddress != nil else { return false }
            // A marker shorter than two bytes: every position is compared.
            guard Self.shortest >= 2 else {
                return (start..<buffer.count).contains { Self.marker(in: buffer, at: $0) }
            }
            return Self.shifts.withUnsafeBufferPointer { shifts in
                let window = Self.shortest
                var index = start
                // A window that does not fit holds no marker yet; the next
                // call starts early enough to see it whole.
                while index + window <= buffer.count {
                    let pair = Int(buffer[index + window - 2]) | Int(buffer[index + window - 1]) << 8
                    let shift = Int(shifts[pair])
                    if shift == 0 {
                        if Self.marker(in: buffer, at: index) { return true }
                        index += 1
                    } else {
                        index += shift
                    }
                }
                return false
            }
        }
    }

    /// True for a parsed body element that is such a sign: a body fallback
    /// (a player, a byline, an author or media link, a `<time>`) but images,
    /// headings and paragraphs, which every page has; microdata; JSON-LD.
    /// Not the head's own tags after a stray element started the body.
    static func isSign(_ element: HTMLElement) -> Bool {
        guard element.inBody else { return false }
        if element.isFallback { return !["img", "h1", "p"].contains(element.name) }
        return element.name == "script" || element["itemprop"] != nil
    }

    private static func marker(in buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        for marker in markers where marker[0] == buffer[index] && index + marker.count <= buffer.count {
            var offset = 1
            while offset < marker.count, buffer[index + offset] == marker[offset] { offset += 1 }
            if offset == marker.count { return true }
        }
        return false
    }
}
