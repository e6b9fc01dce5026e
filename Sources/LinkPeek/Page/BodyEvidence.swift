#if canImport(Glibc)
import Glibc
#endif
import HTMLHead

/// Looks in a page's raw body bytes, without parsing them, for signs that a
/// field the head left out is still coming: a byline or author word
/// (`class="author"`, `rel=author`, `/author/ann`, a JSON `"author"`,
/// `class="writer"`), microdata (`itemprop`), JSON-LD (`ld+json`), a
/// `<time>`, a date attribute (`data-timestamp`, `data-time`,
/// `data-origindate`), an `<audio>` or `<video>` player, a link to an
/// audio or video file, or (when asked, `lookFor`) a byline or date label
/// alone in its element (`BodyEvidence+Labels`).
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

    /// The lone labels that are signs too (`lookFor`): none until asked.
    private var labels: LoneLabels?

    /// Makes the labels of what a page that declared `fields` lacks signs
    /// too: a credit prefix while it gave no author, a date label while it
    /// gave no date (`loneLabels`); none once it gave both, so that a page
    /// whose head has them pays no more for its body than before.
    mutating func lookFor(lacking fields: DeclaredFields) {
        labels = Self.loneLabels(lacking: fields)
    }

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

    private static let longest = max(markers.map(\.count).max() ?? 1, allLabels.longestSign)

    /// The markers that begin with a dot (the media file extensions, four
    /// or five bytes): found from each `.`, which `memchr` finds, and which
    /// is rare in a body next to letters.
    private static let dotMarkers = markers.filter { $0.first == UInt8(ascii: ".") }

    /// Every other marker is at least five bytes long, so its first two
    /// four-byte windows (at its start and one byte on) are a pair of
    /// neighbours, one of which begins at an even offset: the search looks
    /// at every other position only. A shorter marker (none today) makes
    /// the search compare every position with every marker.
    private static let strided = markers.allSatisfy { $0.first == UInt8(ascii: ".") || $0.count >= 5 }

    /// The search's filter: a bit per hash of the two first four-byte
    /// windows of every marker but the dotted ones. Most body bytes are
    /// letters that begin a marker too (`u` of "uthor", `i` of "itemprop");
    /// four bytes rarely do, so a position is compared with the markers
    /// only when its four bytes hash to a set bit.
    private static let filter: [UInt64] = bits(windows: [0, 1])

    /// The same for the first window of each such marker alone, and for its
    /// second alone: a window that passes `filter` must also have the
    /// neighbour its marker would give it (a word such as "tempor" has the
    /// second window of "itemprop", but not its first one before it).
    private static let firstWindows: [UInt64] = bits(windows: [0])
    private static let secondWindows: [UInt64] = bits(windows: [1])

    private static func bits(windows offsets: [Int]) -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: (1 << hashBits) / 64)
        func set(_ word: UInt32) { let h = hash(word); bits[h >> 6] |= 1 << UInt64(h & 63) }
        for marker in markers where marker.first != UInt8(ascii: ".") && marker.count >= 5 {
            for at in offsets { set(word(marker[at], marker[at + 1], marker[at + 2], marker[at + 3])) }
        }
        return bits
    }

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
            if let labels, Self.loneLabel(in: buffer, from: start, labels: labels) { return true }
            guard Self.strided else {
                return (start..<buffer.count).contains { Self.marker(in: buffer, at: $0) }
            }
            return Self.dotted(in: buffer, from: start) || Self.filtered(in: buffer, from: start)
        }
    }

    /// A dotted marker starting at or after `start`.
    private static func dotted(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        guard !dotMarkers.isEmpty, let base = buffer.baseAddress else { return false }
        var index = start
        while index < buffer.count {
            guard let found = memchr(base + index, Int32(UInt8(ascii: ".")), buffer.count - index) else { return false }
            index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            if marker(in: buffer, at: index) { return true }
            index += 1
        }
        return false
    }

    /// A marker of five bytes or more starting at or after `start`: its
    /// window at an even offset passes the filter, and the marker starts
    /// there or one byte before.
    private static func filtered(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        filter.withUnsafeBufferPointer { filter in
            firstWindows.withUnsafeBufferPointer { firsts in
                secondWindows.withUnsafeBufferPointer { seconds in
                    guard let base = buffer.baseAddress else { return false }
                    let raw = UnsafeRawPointer(base)
                    func has(_ bits: UnsafeBufferPointer<UInt64>, _ word: UInt32) -> Bool {
                        let h = hash(word)
                        return bits[h >> 6] & (1 << UInt64(h & 63)) != 0
                    }
                    func window(_ index: Int) -> UInt32 {
                        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self))
                    }
                    // A marker starts at `index` (its first window here, its
                    // second one on) or one byte before (its second window
                    // here, its first one before); each marker is five bytes
                    // or more, so both windows lie in the buffer.
                    func marked(_ index: Int) -> Bool {
                        let here = window(index)
                        if index + 5 <= buffer.count, has(firsts, here), has(seconds, window(index + 1)),
                            marker(in: buffer, at: index)
                        {
                            return true
                        }
                        return index > 0 && has(seconds, here) && has(firsts, window(index - 1))
                            && marker(in: buffer, at: index - 1)
                    }
                    var index = start + start % 2
                    // Two even windows per eight-byte load while they fit, then one at a time.
                    while index + 8 <= buffer.count {
                        let eight = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                        if has(filter, UInt32(truncatingIfNeeded: eight)), marked(index) { return true }
                        if has(filter, UInt32(truncatingIfNeeded: eight >> 16)), marked(index + 2) { return true }
                        index += 4
                    }
                    while index + 4 <= buffer.count {
                        if has(filter, window(index)), marked(index) { return true }
                        index += 2
                    }
                    return false
                }
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
