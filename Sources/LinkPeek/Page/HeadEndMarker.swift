import Glibc
import TextTrimming

/// Finds where a page's own markup ends its head: the first `</head` or
/// `<body` in the raw bytes, in any case, across chunk boundaries.
///
/// The parser ends the head earlier when the head holds an element that
/// only the body may hold (a tracking `<img>`, a `<div>`): HTML's rules
/// start the body there, but such pages go on declaring `<meta>` tags for
/// tens or hundreds of kilobytes. The read budget (head + `bodyScanBytes`)
/// counts from where the page says the head ends, so those tags are read
/// as `parse` reads them.
///
/// A byte search, not a parse: a marker inside a script string ends the
/// head early, which only shortens the read to what it was before. Pages
/// in UTF-16 never match; `PageConsumer` bounds the wait for the marker.
/// Bytes are read in place; only the last few of a chunk are kept.
struct HeadEndMarker {
    /// The offset just past the marker, in bytes of the whole body, once seen.
    private(set) var end: Int?
    /// The last bytes of the previous chunk, lowercased, for a marker split
    /// across two chunks.
    private var carry: [UInt8] = []
    private var offset = 0

    private static let markers: [[UInt8]] = [Array("</head".utf8), Array("<body".utf8)]
    /// The longest marker with the byte that must follow it.
    private static let longest = 7

    /// Looks for a marker in the next chunk of the body.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        defer { offset += bytes.count }
        guard end == nil, !bytes.isEmpty else { return }
        if !carry.isEmpty {
            // A marker that starts in the carried bytes and ends in this chunk.
            let joint = carry + bytes.prefix(Self.longest - 1).map(ASCIIByte.lowercased)
            if let found = joint.withUnsafeBytes({ Self.firstMarkerEnd(in: $0, before: carry.count) }) {
                end = offset - carry.count + found
                return
            }
        }
        if let found = Self.firstMarkerEnd(in: bytes) {
            end = offset + found
            return
        }
        carry = Array((carry + bytes.suffix(Self.longest - 1).map(ASCIIByte.lowercased)).suffix(Self.longest - 1))
    }

    private static func endsTagName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    /// The index just past the first marker that starts before `limit`;
    /// `memchr` (vectorised) finds each `<`.
    private static func firstMarkerEnd(in bytes: UnsafeRawBufferPointer, before limit: Int? = nil) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let stop = min(limit ?? bytes.count, bytes.count)
        var index = 0
        while index < stop {
            guard let found = memchr(base + index, Int32(UInt8(ascii: "<")), stop - index) else { return nil }
            index = base.distance(to: UnsafeRawPointer(found))
            // The tag name must end there: `</header>` is no `</head>`.
            for marker in markers where index + marker.count < bytes.count {
                var matched = 1
                while matched < marker.count, ASCIIByte.lowercased(bytes[index + matched]) == marker[matched] { matched += 1 }
                if matched == marker.count, endsTagName(bytes[index + marker.count]) { return index + marker.count }
            }
            index += 1
        }
        return nil
    }
}
