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
struct HeadEndMarker {
    /// The offset just past the marker, in bytes of the whole body, once seen.
    private(set) var end: Int?
    /// The last bytes of the previous chunk, lowercased, for a marker split
    /// across two chunks.
    private var carry: [UInt8] = []
    private var offset = 0

    private static let markers: [[UInt8]] = [Array("</head".utf8), Array("<body".utf8)]
    private static let longest = 6

    /// Looks for a marker in the next chunk of the body.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) {
        defer { offset += bytes.count }
        guard end == nil else { return }
        var window = carry
        window.reserveCapacity(carry.count + bytes.count)
        let windowStart = offset - carry.count
        for byte in bytes { window.append(Self.lowercased(byte)) }
        if let found = Self.firstMarkerEnd(in: window) {
            end = windowStart + found
            return
        }
        carry = Array(window.suffix(Self.longest - 1))
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// The index just past the first marker in `window`, or nil.
    private static func firstMarkerEnd(in window: [UInt8]) -> Int? {
        var index = 0
        while index < window.count {
            if window[index] == UInt8(ascii: "<") {
                for marker in markers where index + marker.count <= window.count {
                    if window[index..<(index + marker.count)].elementsEqual(marker) { return index + marker.count }
                }
            }
            index += 1
        }
        return nil
    }
}
