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

    /// Whether an article's search goes past twice the budget: undecided
    /// until it gets there, then whether what was read lacked an author or
    /// a date as the rules pick them.
    private var widens: Bool?

    /// How far into the body (bytes after the head) a page that declared no
    /// author or no date is searched, unparsed, for a byline or date past
    /// the budget, with `read` bytes of body read: twice the budget; for an
    /// article (`og:type` article, `article:*` metas, a JSON-LD article)
    /// `articleSearchBytes`, unless what the first twice the budget gave
    /// (`document`, asked once) already has an author and a date.
    ///
    /// Why: on the open corpus the bylines and dates that lie past 16 KiB of
    /// body sit at 44 and 83 KiB, and in four articles at 255, 265, 354 and
    /// 688 KiB (a listing's first byline, a `<time>` under a profile's
    /// posts, body JSON-LD after the comments, a script-built page whose
    /// JSON-LD and byline follow 600 KiB of code). A page that is no
    /// article rarely has a byline at all, and would read its whole search
    /// for nothing: it stops at twice the budget, as before. An article
    /// names its author and date by definition, so reading on for them pays
    /// on the articles that gave neither so far. The search is a byte scan
    /// (a parse only from a sign on), and the reading past the budget is
    /// optional (`.settle`): a body that comes slowly ends it.
    mutating func reach(budget: Int, article: Bool, read: Int, document: () -> HeadDocument) -> Int {
        let near = 2 * budget
        guard article, Self.articleSearchBytes > near else { return near }
        if widens == nil, read >= near {
            let found = MetadataRules.extract(from: document(), pageURL: Self.placeholderURL)
            widens = found.author == nil || found.publishedTime == nil
        }
        return widens == false ? near : Self.articleSearchBytes
    }

    /// An article's search: past the deepest byline of the open corpus
    /// (688 KiB), within the 2 MiB a page's body is read to at most.
    static let articleSearchBytes = 1024 * 1024

    /// The rules asked whether an author and a date were found need a page
    /// address; neither field depends on it.
    private static let placeholderURL = "http://page.invalid/"

    /// Starts the search afresh on new held bytes, keeping the reach decided.
    mutating func restart() {
        searched = 0
    }

    private static let longest = markers.map(\.count).max() ?? 1

    /// The search's filter: a bit per hash of four bytes that begin some
    /// marker. Most body bytes are letters that begin a marker too (`u` of
    /// "uthor", `i` of "itemprop"); four bytes rarely do, so a position is
    /// compared with the markers only when its four bytes hash to a set bit.
    /// A marker shorter than four bytes sets the bits of every four bytes it
    /// begins (one of three: 256 bits; shorter: all of them).
    private static let filter: [UInt64] = {
        var bits = [UInt64](repeating: 0, count: (1 << hashBits) / 64)
        func set(_ word: UInt32) { let h = hash(word); bits[h >> 6] |= 1 << UInt64(h & 63) }
        for marker in markers {
            if marker.count >= 4 {
                set(word(marker[0], marker[1], marker[2], marker[3]))
            } else if marker.count == 3 {
                for next in 0...255 { set(word(marker[0], marker[1], marker[2], UInt8(next))) }
            } else {
                return [UInt64](repeating: ~0, count: bits.count)
            }
        }
        return bits
    }()

    private static let hashBits = 14

    private static func word(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> UInt32 {
        UInt32(a) | UInt32(b) << 8 | UInt32(c) << 16 | UInt32(d) << 24
    }

    private static func hash(_ word: UInt32) -> Int {
        Int(truncatingIfNeeded: (word &* 0x9E37_79B1) >> UInt32(32 - hashBits))
    }

    /// True when `bytes` (the held body so far, which only ever grows)
    /// holds a marker; each call looks only at what is new, plus enough of
    /// the end before it for a marker split across two chunks.
    mutating func search(_ bytes: [UInt8]) -> Bool {
        let start = max(0, searched - (Self.longest - 1))
        searched = bytes.count
        return bytes.withUnsafeBufferPointer { buffer in
            Self.filter.withUnsafeBufferPointer { filter in
                guard let base = buffer.baseAddress else { return false }
                let raw = UnsafeRawPointer(base)
                func passes(_ word: UInt32) -> Bool {
                    let h = Self.hash(word)
                    return filter[h >> 6] & (1 << UInt64(h & 63)) != 0
                }
                var index = start
                // Four positions per eight-byte load while they fit, then one
                // four-byte window per position, then the last three one by one.
                while index + 8 <= buffer.count {
                    let eight = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    if passes(UInt32(truncatingIfNeeded: eight)) || passes(UInt32(truncatingIfNeeded: eight >> 8))
                        || passes(UInt32(truncatingIfNeeded: eight >> 16)) || passes(UInt32(truncatingIfNeeded: eight >> 24)) {
                        for position in index..<(index + 4) where Self.marker(in: buffer, at: position) { return true }
                    }
                    index += 4
                }
                while index + 4 <= buffer.count {
                    if passes(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self))),
                        Self.marker(in: buffer, at: index) { return true }
                    index += 1
                }
                while index < buffer.count {
                    if Self.marker(in: buffer, at: index) { return true }
                    index += 1
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
