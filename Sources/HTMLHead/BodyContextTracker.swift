import TextTrimming

/// Follows which landmarks are open around the element being parsed, for
/// `BodyContext`, in constant memory whatever the nesting: no stack of open
/// elements, only the depth at which each landmark flag was set (by its
/// outermost element; a `<nav>` inside a `<nav>` changes nothing). When an
/// element at or above that depth ends, the flag goes. A page of 10,000
/// nested tags costs one comparison per end tag.
///
/// It relies on the collector's depth, which libxml2 keeps balanced: every
/// start it reports gets an end, implied or written, by the end of input.
struct BodyContextTracker {
    /// The landmarks open now.
    private(set) var landmarks: BodyContext.Landmarks = []
    /// For each open flag (by bit position), the depth of the element that set it.
    private var openedAt = [Int](repeating: 0, count: BodyContext.Landmarks.count)
    /// The greatest depth in `openedAt` among open flags: an end deeper than
    /// this closes nothing, which is almost every end.
    private var deepestOpen = 0
    /// True once an `<article>` outside `apart` started: later ones are not the first.
    private var sawArticle = false

    /// Where an element at `depth` sits.
    func context(depth: Int) -> BodyContext {
        BodyContext(landmarks: landmarks, depth: depth)
    }

    /// True when the open landmarks include any of `landmarks`.
    func isInside(_ landmarks: BodyContext.Landmarks) -> Bool {
        !self.landmarks.isDisjoint(with: landmarks)
    }

    /// Landmarks whose `<article>`s are not the page's first (the caller's
    /// `BodyRecords.apart`: a teaser in a related list before the story).
    var apart: BodyContext.Landmarks = []

    /// The caller's words for `.markedArea` (`BodyRecords.areaWords`, `areaPrefixes`).
    var areas = AreaWords()

    struct AreaWords {
        var words: [[UInt8]] = []
        var prefixes: [[UInt8]] = []

        init() {}

        init(_ records: BodyRecords) {
            words = records.areaWordBytes
            prefixes = records.areaPrefixBytes
        }

        init(words: [[UInt8]]) {
            self.words = words
        }

        var isEmpty: Bool { words.isEmpty && prefixes.isEmpty }
    }

    /// An element started at `depth` (its own depth: `<html>` is 1).
    mutating func open(_ name: ElementName, _ attributes: AttributeList, depth: Int) {
        var opened = opening(name)
        if !landmarks.contains(.hidden), BodyContextTracker.isHidden(attributes) { opened.insert(.hidden) }
        if var role = BodyContextTracker.roleLandmarks(of: attributes) {
            if role.contains(.article) {
                role.remove(.article)
                if !opened.contains(.article) { opened.formUnion(articleLandmarks()) }
            }
            opened.formUnion(role)
        }
        if !areas.isEmpty, !landmarks.contains(.markedArea), BodyContextTracker.namesArea(attributes, areas),
           !BodyContextTracker.isWholeStory(name) {
            opened.insert(.markedArea)
        }
        let new = opened.subtracting(landmarks)
        guard !new.isEmpty else { return }
        for bit in 0..<BodyContext.Landmarks.count where new.rawValue & (1 << bit) != 0 { openedAt[bit] = depth }
        landmarks.formUnion(new)
        deepestOpen = max(deepestOpen, depth)
    }

    /// The element at `depth` ended: the flags it (or a deeper element) set go.
    mutating func close(depth: Int) {
        guard depth <= deepestOpen else { return }
        var deepest = 0
        for bit in 0..<BodyContext.Landmarks.count where landmarks.rawValue & (1 << bit) != 0 {
            if openedAt[bit] >= depth {
                landmarks.remove(BodyContext.Landmarks(rawValue: 1 << bit))
            } else {
                deepest = max(deepest, openedAt[bit])
            }
        }
        deepestOpen = deepest
    }

    /// The flags an element of this name sets where it starts. Asked for
    /// every element: most names are told apart by their first byte alone.
    private mutating func opening(_ name: ElementName) -> BodyContext.Landmarks {
        switch name {
        case .article: return articleLandmarks()
        case .main: return .main
        case .header: return isInside([.article, .main]) ? .articleHeader : .header
        case .footer: return isInside([.article, .main]) ? .articleFooter : .footer
        case .nav: return .nav
        case .aside: return .aside
        case .form: return .form
        case .dialog: return .dialog
        case .noscript: return .noscript
        default: return []
        }
    }

    /// An `<article>` (or `role=article`) starting: the first of the page,
    /// or one nested in another.
    private mutating func articleLandmarks() -> BodyContext.Landmarks {
        var result: BodyContext.Landmarks = .article
        if landmarks.contains(.article) { result.insert(.nestedArticle) }
        if !sawArticle, !isInside(apart) {
            sawArticle = true
            result.insert(.firstArticle)
        }
        return result
    }

    /// ARIA landmark roles and the elements they stand for (banner and
    /// contentinfo are the page's header and footer wherever they are written).
    private static let roles: [(name: [UInt8], landmarks: BodyContext.Landmarks)] = [
        (Array("navigation".utf8), .nav),
        (Array("complementary".utf8), .aside),
        (Array("contentinfo".utf8), .footer),
        (Array("banner".utf8), .header),
        (Array("main".utf8), .main),
        (Array("article".utf8), .article),
        (Array("dialog".utf8), .dialog),
        (Array("alertdialog".utf8), .dialog),
    ]

    /// How much of a `class` or `id` value is looked through for area words
    /// (real class lists are well under it).
    static let areaValueBytes = 256

    /// Elements whose classes speak for the whole page or story, never an area of it.
    private static func isWholeStory(_ name: ElementName) -> Bool {
        name == .html || name == .body || name == .main || name == .article
    }

    /// True when a token of the element's `class` or `id` is one of the
    /// area words or begins with one of the area prefixes. The attributes
    /// are read in place, as for `role`.
    static func namesArea(_ attributes: AttributeList, _ areas: AreaWords) -> Bool {
        guard var cursor = attributes.pairs else { return false }
        while let key = cursor.pointee {
            if AttributeList.equalsIgnoringASCIICase(key, "class") || AttributeList.equalsIgnoringASCIICase(key, "id"),
               let value = cursor.advanced(by: 1).pointee, tokensName(value, areas) {
                return true
            }
            cursor = cursor.advanced(by: 2)
        }
        return false
    }

    /// Whether a token of the C string `value` (runs of ASCII letters and
    /// digits, compared in any ASCII case) names an area. Only the first
    /// `areaValueBytes` bytes are looked at: a hostile class list of 64 KiB
    /// on every element costs no more than a real one.
    static func tokensName(_ value: UnsafePointer<UInt8>, _ areas: AreaWords) -> Bool {
        func isTokenByte(_ byte: UInt8) -> Bool { ASCIIByte.isLetter(byte) || (byte &- UInt8(ascii: "0")) < 10 }
        var start = 0
        while true {
            while start < areaValueBytes, value[start] != 0, !isTokenByte(value[start]) { start += 1 }
            guard start < areaValueBytes, value[start] != 0 else { return false }
            var end = start
            while end < areaValueBytes, isTokenByte(value[end]) { end += 1 }
            func begins(with word: [UInt8]) -> Bool {
                word.count <= end - start && word.indices.allSatisfy { ASCIIByte.lowercased(value[start + $0]) == word[$0] }
            }
            if areas.words.contains(where: { $0.count == end - start && begins(with: $0) })
                || areas.prefixes.contains(where: begins) {
                return true
            }
            start = end
        }
    }

    /// The landmarks named by the element's `role` attribute, or nil: the
    /// attribute's name compared in place, byte by byte, since every body
    /// element's attributes are looked through.
    static func roleLandmarks(of attributes: AttributeList) -> BodyContext.Landmarks? {
        guard var cursor = attributes.pairs else { return nil }
        while let key = cursor.pointee {
            if AttributeList.equalsIgnoringASCIICase(key, "role") {
                return cursor.advanced(by: 1).pointee.flatMap(roleLandmarks)
            }
            cursor = cursor.advanced(by: 2)
        }
        return nil
    }

    /// True when the element's attributes hide it from readers: `hidden`,
    /// `aria-hidden="true"`, a `style` that sets `display: none` or
    /// `visibility: hidden`, or a class of `screenReaderOnlyClasses`. Read
    /// in place, as for `role`.
    static func isHidden(_ attributes: AttributeList) -> Bool {
        guard var cursor = attributes.pairs else { return false }
        while let key = cursor.pointee {
            let value = cursor.advanced(by: 1).pointee
            if AttributeList.equalsIgnoringASCIICase(key, "hidden") { return true }
            if let value, AttributeList.equalsIgnoringASCIICase(key, "aria-hidden"),
               AttributeList.equalsIgnoringASCIICase(value, "true") {
                return true
            }
            if let value, AttributeList.equalsIgnoringASCIICase(key, "style"), styleHides(value) { return true }
            if let value, AttributeList.equalsIgnoringASCIICase(key, "class"), namesScreenReaderOnly(value) { return true }
            cursor = cursor.advanced(by: 2)
        }
        return false
    }

    /// Whole `class` tokens (split at white space, ASCII case ignored) of
    /// the utility classes that keep text for screen readers only, off
    /// the screen: a card shows what readers see.
    static let screenReaderOnlyClasses: [[UInt8]] = [
        "sr-only", "visually-hidden", "visuallyhidden", "screen-reader-text", "screen-reader-only", "element-invisible",
    ].map { Array($0.utf8) }

    /// Whether the `class` value `value` (its first `areaValueBytes` bytes)
    /// has a token of `screenReaderOnlyClasses`.
    static func namesScreenReaderOnly(_ value: UnsafePointer<UInt8>) -> Bool {
        var start = 0
        while start < areaValueBytes, value[start] != 0 {
            while start < areaValueBytes, value[start] != 0, ByteCursor.isSpace(value[start]) { start += 1 }
            var end = start
            while end < areaValueBytes, value[end] != 0, !ByteCursor.isSpace(value[end]) { end += 1 }
            let length = end - start
            if length > 0, screenReaderOnlyClasses.contains(where: { name in
                name.count == length && name.indices.allSatisfy { ByteCursor.lower(value[start + $0]) == name[$0] }
            }) {
                return true
            }
            start = end
        }
        return false
    }

    /// Style declarations that hide an element, spaces and case aside.
    private static let hidingDeclarations: [(property: [UInt8], value: [UInt8])] = [
        (Array("display".utf8), Array("none".utf8)), (Array("visibility".utf8), Array("hidden".utf8)),
    ]

    /// Whether the inline style `value` (its first `areaValueBytes` bytes)
    /// holds `display:none` or `visibility:hidden`.
    static func styleHides(_ value: UnsafePointer<UInt8>) -> Bool {
        var length = 0
        while length < areaValueBytes, value[length] != 0 { length += 1 }
        /// The position after `word` at `index` (ASCII case ignored), or nil.
        func match(_ word: [UInt8], at index: Int) -> Int? {
            guard index + word.count <= length,
                  word.indices.allSatisfy({ ByteCursor.lower(value[index + $0]) == word[$0] }) else { return nil }
            return index + word.count
        }
        func skipSpaces(_ index: Int) -> Int {
            var index = index
            while index < length, ByteCursor.isSpace(value[index]) { index += 1 }
            return index
        }
        for start in 0..<length {
            // A property starts the value or follows `;` (spaces aside).
            if start > 0, !ByteCursor.isSpace(value[start - 1]), value[start - 1] != UInt8(ascii: ";") { continue }
            for declaration in hidingDeclarations {
                guard let afterName = match(declaration.property, at: start) else { continue }
                let colon = skipSpaces(afterName)
                guard colon < length, value[colon] == UInt8(ascii: ":"),
                      let end = match(declaration.value, at: skipSpaces(colon + 1)) else { continue }
                if end == length || !ASCIIByte.isLetter(value[end]) && value[end] != UInt8(ascii: "-") { return true }
            }
        }
        return false
    }

    /// The landmarks named by a `role` value's tokens (ASCII case ignored),
    /// read in place; nil when none is a landmark role.
    static func roleLandmarks(_ value: UnsafePointer<UInt8>) -> BodyContext.Landmarks? {
        var found: BodyContext.Landmarks = []
        var start = 0
        while true {
            while value[start] != 0, ByteCursor.isSpace(value[start]) { start += 1 }
            guard value[start] != 0 else { break }
            var end = start
            while value[end] != 0, !ByteCursor.isSpace(value[end]) { end += 1 }
            for role in roles where role.name.count == end - start
                && role.name.indices.allSatisfy({ ByteCursor.lower(value[start + $0]) == role.name[$0] }) {
                found.insert(role.landmarks)
            }
            start = end
        }
        return found.isEmpty ? nil : found
    }
}
