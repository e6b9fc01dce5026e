import Testing
@testable import HTMLHead

/// Element names classified on bytes give what the collector's string
/// comparisons gave: each known name exactly, anything else `.other`.
@Suite struct ElementNameTests {
    /// The void and block sets the collector kept as `Set<String>` before.
    static let voidNames: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]
    static let blockNames: Set<String> = [
        "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure",
        "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p",
        "section", "table", "td", "th", "tr", "ul",
    ]

    @Test func everyKnownNameIsItself() {
        for name in ElementName.allCases where name != .other {
            let spelling = String(describing: name)
            #expect(ElementName(spelling) == name)
            spelling.withCString { pointer in
                pointer.withMemoryRebound(to: UInt8.self, capacity: spelling.utf8.count + 1) {
                    #expect(ElementName(cString: $0) == name)
                }
            }
            #expect(name.isVoid == Self.voidNames.contains(spelling), "\(spelling)")
            #expect(name.isBlock == Self.blockNames.contains(spelling), "\(spelling)")
        }
        for spelling in Self.voidNames.union(Self.blockNames) { #expect(ElementName(spelling) != .other, "\(spelling)") }
    }

    @Test func otherNamesAreOther() {
        for spelling in ["", "h", "h7", "articles", "Article", "META", "blockquotes", "figcaptionx", "x-meta", "span",
                         "scrip", "scriptt", "méta", "a\u{0}"] {
            #expect(ElementName(spelling) == .other, "\(spelling)")
        }
        let long = "figcaption-and-more"
        long.withCString { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: long.utf8.count + 1) {
                #expect(ElementName(cString: $0) == .other)
            }
        }
    }
}
