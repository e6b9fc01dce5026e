/// Which body elements are kept as fallbacks: plain, bounded records.
///
/// A page that declares no `og:image`, `og:audio` or author still shows
/// them: in `<video>`/`<audio>` players, in `<img>` elements, in a byline.
/// The scanner records such elements (tag, attributes, at most 1 KiB of
/// text) and nothing more: what a byline or a media link *is* — the words
/// that mark one — comes from the caller as `BodyRecords`, and the rules
/// in LinkPeek decide what each record means. Each kind has its own small
/// cap, because the live fetch reads up to 64 KiB of body and a long page
/// must not turn into thousands of recorded elements. Elements inside the
/// caller's `BodyRecords.apart` landmarks (navigation, related lists) have
/// caps of their own, so that they cannot crowd out the article's; each
/// record carries where it sat (`BodyContext`).
extension ElementCollector {
    /// The kinds of fallback element, each counted against its own cap.
    enum FallbackKind: Int, CaseIterable {
        /// `<video>` and `<audio>` (their `src`, `type`, `poster`).
        case player
        /// `<source>` and `<track>` inside a recorded player.
        case playerSource
        /// `<img>`.
        case image
        /// `<a>` whose `href` has one of `BodyRecords.linkHrefs` or ends in
        /// one of `linkPathEndings`, or is marked, with its text.
        case link
        /// Any element whose `class`, `id`, `rel` or `data-testid` has one of `BodyRecords.markers`, with its text.
        case marked
        /// `<h1>`, with its text.
        case heading
        /// `<p>`, with its text.
        case paragraph
        /// `<time datetime>`, or any element with one of the caller's
        /// `BodyRecords.dateAttributes`, with its text.
        case time
        /// `<time>` without `datetime` (bare, or with a class), with its
        /// text, where its date may be; counted apart from `.time` because
        /// pages list many such times ("1w", "3 hours ago") that must not
        /// crowd out a dated one. The tag gate keeps a bare one's text while
        /// this kind may still be recorded (`TagGate.BodyText.times`).
        case textTime
        /// A table row (`<tr>`) or a description list (`<dl>`), with its
        /// text: where pages list facts with their labels ("公開日 |
        /// 2021年3月9日"), a date among them.
        case row
        /// Any other element whose `class` or `id` has one of the caller's
        /// `BodyRecords.dateWords` as a token (`<div class="date">`), with
        /// its text.
        case namedDate
        /// A `<div>` whose own text has a `<br>` (`ElementCollector+TextBlock`):
        /// never a tag's kind, the collector reads such blocks itself.
        case textBlock
        /// An element whose first text starts with one of the caller's
        /// `BodyRecords.labels` (`ElementCollector+Labels`), found as the
        /// text arrives: never a tag's kind either.
        case label
    }

    /// How many elements of each kind are kept, how much text each may
    /// carry, and the caller's words for the marked kinds.
    struct FallbackLimits {
        var players = 20
        var playerSources = 40
        var images = 50
        var links = 20
        var marked = 20
        var headings = 3
        var paragraphs = 10
        var times = 10
        var textTimes = 10
        var rows = 10
        var namedDates = 10
        var textBlocks = 3
        /// Text blocks given up that had to stay records without text
        /// (`ElementCollector+TextBlock`), before no more are tried.
        var textBlockMisses = 20
        /// The fewest characters a text block keeps (shorter: no prose).
        var textBlockCharacters = 80
        var labels = 10
        /// How much text a label run alone in its element ("By", "Published:")
        /// takes on from the elements after it (`ElementCollector+Labels`).
        var labelCarryBytes = 256
        var textBytes = 1024
        var records = BodyRecords()

        func cap(_ kind: FallbackKind) -> Int {
            switch kind {
            case .player: players
            case .playerSource: playerSources
            case .image: images
            case .link: links
            case .marked: marked
            case .heading: headings
            case .paragraph: paragraphs
            case .time: times
            case .textTime: textTimes
            case .row: rows
            case .namedDate: namedDates
            case .textBlock: textBlocks
            case .label: labels
            }
        }

        /// The fallback kind of a body element, or nil when it is not kept.
        /// `insidePlayer` is true while a recorded `<video>`/`<audio>` is
        /// open; `markedFull` skips the attribute tests once no marked
        /// element can be kept, since every other element of a long page
        /// would pay for them.
        func kind(of name: ElementName, _ attributes: AttributeList, insidePlayer: Bool, markedFull: Bool = false)
            -> FallbackKind?
        {
            switch name {
            case .video, .audio:
                return .player
            case .source, .track:
                // Outside a player, `<source>` belongs to `<picture>`: an image
                // variant, already covered by its `<img>`.
                return insidePlayer ? .playerSource : nil
            case .img:
                return .image
            case .h1:
                return .heading
            case .p:
                return !markedFull && isMarked(attributes) ? .marked : .paragraph
            case .time:
                return attributes.contains("datetime") ? .time : .textTime
            case .a:
                if isMarkedLink(attributes) || isMarked(attributes) { return .link }
                return nil
            case .tr, .dl:
                return !markedFull && isMarked(attributes) ? .marked : .row
            case .html, .head, .body, .script, .style, .svg, .math, .template, .noscript, .meta, .link:
                return nil
            default:
                if !markedFull && isMarked(attributes) { return .marked }
                if hasDateAttribute(attributes) { return .time }
                return !name.isVoid && namesDate(attributes) ? .namedDate : nil
            }
        }

        /// True when a token of `class` or `id` is one of the caller's date words.
        func namesDate(_ attributes: AttributeList) -> Bool {
            !records.dateWordBytes.isEmpty
                && BodyContextTracker.namesArea(attributes, BodyContextTracker.AreaWords(words: records.dateWordBytes))
        }

        /// True when the element has one of the caller's date attributes.
        func hasDateAttribute(_ attributes: AttributeList) -> Bool {
            !records.dateAttributeBytes.isEmpty && attributes.containsAny(ofNames: records.dateAttributeBytes)
        }

        /// The attributes whose values markers are looked for in.
        static let markedAttributes: [StaticString] = ["class", "id", "rel", "data-testid"]

        /// True when `class`, `id`, `rel` or `data-testid` holds one of the caller's markers.
        func isMarked(_ attributes: AttributeList) -> Bool {
            guard !records.markerSet.isEmpty else { return false }
            for name in FallbackLimits.markedAttributes {
                let marked = attributes.withValue(of: name) { value in records.markerSet.occurs(in: value) }
                if marked == true { return true }
            }
            return false
        }

        /// True when an `<a href>` holds one of the caller's link words or
        /// its path ends in one of the caller's endings.
        func isMarkedLink(_ attributes: AttributeList) -> Bool {
            guard !records.linkHrefBytes.isEmpty || !records.linkPathEndingBytes.isEmpty else { return false }
            return attributes.withValue(of: "href") { value in
                if records.linkHrefSet.occurs(in: value) { return true }
                return ElementCollector.pathEnds(value, withOneOf: records.linkPathEndingBytes)
            } ?? false
        }
    }

    /// True when the path of the URL `value` (before `?` and `#`) ends in
    /// one of `endings` (lowercase), ignoring ASCII case.
    static func pathEnds(_ value: UnsafePointer<UInt8>, withOneOf endings: [[UInt8]]) -> Bool {
        guard !endings.isEmpty else { return false }
        var length = 0
        while value[length] != 0, value[length] != UInt8(ascii: "?"), value[length] != UInt8(ascii: "#") { length += 1 }
        return endings.contains { ending in
            guard ending.count <= length else { return false }
            let start = length - ending.count
            return ending.indices.allSatisfy { ByteCursor.lower(value[start + $0]) == ending[$0] }
        }
    }
}

extension AttributeList {
    /// Calls `body` with the raw C string of attribute `name`'s first value;
    /// nil when the attribute is absent or has no value. Reads in place, so
    /// testing every body element's `class` allocates nothing.
    func withValue<Result>(of name: StaticString, _ body: (UnsafePointer<UInt8>) -> Result) -> Result? {
        guard var cursor = pairs else { return nil }
        while let key = cursor.pointee {
            if ElementCollector.equalsASCII(key, name) {
                guard let value = cursor.advanced(by: 1).pointee else { return nil }
                return body(value)
            }
            cursor = cursor.advanced(by: 2)
        }
        return nil
    }
}

extension ElementCollector {
    /// True when the C string `key` is exactly `name` (an ASCII attribute name).
    static func equalsASCII(_ key: UnsafePointer<UInt8>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        for index in 0..<count where key[index] != name.utf8Start[index] { return false }
        return key[count] == 0
    }
}
