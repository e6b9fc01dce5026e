/// The element names the collector acts on, told apart on libxml2's bytes:
/// classifying an element (is it a `<meta>`, a block, a landmark, void?)
/// costs a few word compares and no Swift `String`. A profile of the fetch
/// benchmark had String making and comparing (`_stringCompareWithSmolCheck`
/// from the collector's `switch`es and `Set<String>` lookups) among its
/// largest entries, for elements that are then mostly dropped.
///
/// Names match exactly, as the collector's string `switch`es did (libxml2
/// reports HTML element names lowercased).
enum ElementName: UInt8, CaseIterable {
    case other
    // The document's frame and the elements the collector records.
    case html, head, body, frameset, title, meta, link, base, script, style, svg, math, template, noscript
    // Body fallbacks and players.
    case video, audio, source, track, img, h1, p, time, a
    // Landmarks.
    case article, main, header, footer, nav, aside, form, dialog
    // The rest of the void elements.
    case area, br, col, embed, hr, input, param, wbr
    // The rest of the block elements.
    case address, blockquote, dd, div, dl, dt, figcaption, figure, h2, h3, h4, h5, h6, li, ol, section, table, td, th,
         tr, ul

    /// The name of a known element, or `.other`, from a NUL-terminated name.
    init(cString name: UnsafePointer<UInt8>) {
        var length = 0
        while length <= ElementName.longest, name[length] != 0 { length += 1 }
        self = ElementName.lookUp(UnsafeBufferPointer(start: name, count: length))
    }

    /// The name of a known element, or `.other` (for tests and callers holding a `String`).
    init(_ name: String) {
        var name = name
        self = name.withUTF8 { ElementName.lookUp($0) }
    }

    /// Elements that never have content, so never get an end tag's text.
    var isVoid: Bool {
        switch self {
        case .area, .base, .br, .col, .embed, .hr, .img, .input, .link, .meta, .param, .source, .track, .wbr: true
        default: false
        }
    }

    /// Elements that start a new line of text where they begin and end.
    var isBlock: Bool {
        switch self {
        case .address, .article, .aside, .blockquote, .br, .dd, .div, .dl, .dt, .figcaption, .figure, .footer, .h1, .h2,
             .h3, .h4, .h5, .h6, .header, .hr, .li, .main, .nav, .ol, .p, .section, .table, .td, .th, .tr, .ul:
            true
        default: false
        }
    }

    /// The longest known name's length in bytes.
    private static let longest = 10

    /// One known name as two words (its first eight bytes, then the rest),
    /// with the element it names.
    private struct Entry {
        var head: UInt64
        var tail: UInt64
        var name: ElementName
    }

    /// The known names, by length (index 0 unused).
    private static let byLength: [[Entry]] = {
        var byLength = [[Entry]](repeating: [], count: longest + 1)
        for name in allCases where name != .other {
            let spelling = Array(String(describing: name).utf8)
            let (head, tail) = spelling.withUnsafeBufferPointer(words)
            byLength[spelling.count].append(Entry(head: head, tail: tail, name: name))
        }
        return byLength
    }()

    /// The bytes packed into two little-endian words (at most 16 bytes).
    private static func words(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        for offset in 0..<min(bytes.count, 16) {
            if offset < 8 {
                head |= UInt64(bytes[offset]) << UInt64(8 * offset)
            } else {
                tail |= UInt64(bytes[offset]) << UInt64(8 * (offset - 8))
            }
        }
        return (head, tail)
    }

    private static func lookUp(_ bytes: UnsafeBufferPointer<UInt8>) -> ElementName {
        guard bytes.count > 0, bytes.count <= longest else { return .other }
        let (head, tail) = words(bytes)
        for entry in byLength[bytes.count] where entry.head == head && entry.tail == tail { return entry.name }
        return .other
    }
}

/// An element's name as the parser reported it: classified at once, spelled
/// as a `String` only when an element is recorded.
struct ElementTag {
    let name: ElementName
    private let cString: UnsafePointer<UInt8>

    /// A name from libxml2, valid during the callback that passed it.
    init(cString: UnsafePointer<UInt8>) {
        name = ElementName(cString: cString)
        self.cString = cString
    }

    /// The name as written (a copy: made for recorded elements only).
    var string: String { String(cString: cString) }
}
