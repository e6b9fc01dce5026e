import FoundationEssentials
import HTMLHead
import TextTrimming

/// A value the rules chose, with the tag or rule that gave it (for `sources`).
struct Picked<Value> {
    var value: Value
    var source: String
}

/// The scanner's elements, indexed once for the rules: `<meta>` by key,
/// `<link>` by rel, titles, JSON-LD nodes and microdata properties, each in
/// document order.
struct PageIndex {
    /// One `<meta>` tag. `keys` holds its lowercased `property` and `name`
    /// (both, because pages put `og:*` in `name=` and `twitter:*` in `property=`).
    struct Meta {
        var keys: [String]
        var content: String
        var order: Int
    }

    /// One `<link>` tag with its lowercased rel tokens (a list: a tag has one
    /// or two, and a set cost a hash table per link).
    struct Link {
        var rels: [String]
        var element: HTMLElement
        var order: Int
    }

    /// One element with an `itemprop`; `value` is what microdata reads from
    /// it, `context` where it sat when in the body (`BodyContext`).
    struct Property {
        var name: String
        var value: String
        var order: Int
        var context: BodyContext
        var inBody: Bool
        /// The element's text (its value may be an attribute's).
        var text: String?
    }

    var metas: [Meta] = []
    /// Positions in `metas` by key, in document order: a page with thousands
    /// of metas would otherwise be scanned whole for every key a rule asks.
    private var metasByKey: [String: [Int]] = [:]
    var links: [Link] = []
    private(set) var titles: [(text: String, inBody: Bool)] = []
    /// `titleText()`, cleaned once: several rules ask for it.
    private var cleanedTitle: String?
    var jsonLD: JSONLDGraph
    var properties: [Property] = []
    /// Positions in `properties` by name, in document order (as `metasByKey`).
    private var propertiesByName: [String: [Int]] = [:]
    /// Body elements the scanner kept as fallbacks (`HTMLElement.isFallback`),
    /// in document order; the rules use them only when nothing is declared.
    var fallbacks: [(element: HTMLElement, order: Int)] = []
    /// The page's lead article, which ranks body elements and microdata by place.
    let lead: MetadataRules.LeadArticle
    let resolver: URLResolver
    let htmlLang: String?

    init(document: HeadDocument, pageURL: String) {
        var baseHref: String?
        var scripts: [String] = []
        // Sized once: grown one tag at a time it was rehashed several times per page.
        metasByKey.reserveCapacity(min(document.elements.count, 512))
        for (order, element) in document.elements.enumerated() {
            if element.isFallback {
                fallbacks.append((element, order))
                continue
            }
            switch element.name {
            case "base":
                // Only the first <base href> counts, as in browsers.
                if baseHref == nil, let href = element["href"], !href.isEmpty { baseHref = href }
            case "title":
                if let text = element.text { titles.append((text, element.inBody)) }
            case "script":
                if let text = element.text { scripts.append(text) }
            case "link":
                links.append(Link(rels: PageIndex.tokens(element["rel"] ?? ""), element: element, order: order))
            case "meta":
                if let content = element["content"] ?? element["value"] {
                    let keys = PageIndex.metaKeys(of: element)
                    guard !keys.isEmpty else { break }
                    for key in keys { metasByKey[key, default: []].append(metas.count) }
                    metas.append(Meta(keys: keys, content: content, order: order))
                }
            default:
                break
            }
            if let prop = element["itemprop"], let value = PageIndex.microdataValue(element) {
                // itemprop may list several names ("image thumbnailUrl").
                for name in prop.lowercased().split(whereSeparator: \.isWhitespace) {
                    propertiesByName[String(name), default: []].append(properties.count)
                    properties.append(Property(name: String(name), value: value, order: order,
                                               context: element.context, inBody: element.inBody, text: element.text))
                }
            }
        }
        lead = MetadataRules.LeadArticle(fallbacks: fallbacks, properties: properties)
        let ordered = titles.filter { !$0.inBody } + titles.filter(\.inBody)
        cleanedTitle = ordered.lazy.compactMap { TextCleaner.clean($0.text) }.first
        resolver = URLResolver(pageURL: pageURL, baseHref: baseHref)
        jsonLD = JSONLDGraph(scripts: scripts)
        htmlLang = document.htmlLang
    }

    /// The microdata value of an element: an attribute for elements that
    /// carry one (meta, link, img, time, ...), else its text.
    private static func microdataValue(_ element: HTMLElement) -> String? {
        // `<abbr title>` is the microformats way to give a machine value
        // (Blogger: `<abbr itemprop="datePublished" title="2024-…">8:38 pm</abbr>`).
        let attributes = element.name == "abbr" ? ["title"] : ["content", "datetime", "href", "src", "value"]
        for attribute in attributes {
            if let value = element[attribute], !value.isEmpty { return value }
        }
        return element.text
    }

    /// Every `<meta>` content for `key`, in document order.
    func metaValues(_ key: String) -> [Meta] {
        (metasByKey[key] ?? []).map { metas[$0] }
    }

    /// The first non-empty cleaned text among `keys`, tried in priority order.
    func metaText(_ keys: [String]) -> Picked<String>? {
        for key in keys {
            for meta in metaValues(key) {
                if let text = TextCleaner.clean(meta.content) { return Picked(value: text, source: key) }
            }
        }
        return nil
    }

    /// The first non-empty raw (trimmed) content among `keys`, for URLs, dates and codes.
    func metaRaw(_ keys: [String]) -> Picked<String>? {
        for key in keys {
            for meta in metaValues(key) {
                let value = meta.content.trimmedWhitespace
                if !value.isEmpty { return Picked(value: value, source: key) }
            }
        }
        return nil
    }

    /// How many elements after an item's property a property nested in it
    /// is looked for (`nestedName`).
    static let nestedPropertyReach = 8

    /// The `name` property nested in the property `outer` (`itemprop=name`
    /// inside `itemprop=author`): the first `name` soon after it whose text
    /// the outer element's text holds, or a `<meta itemprop="name"
    /// content="…">` (no text of its own) right inside it, before any
    /// property but the person's own (`between`); nil when there is none.
    func nestedName(in outer: Property, between: Set<String> = []) -> String? {
        guard let outerText = TextCleaner.clean(outer.text) else { return nil }
        for position in propertiesByName["name"] ?? [] where properties[position].order > outer.order {
            let property = properties[position]
            guard property.order - outer.order <= PageIndex.nestedPropertyReach,
                  let name = TextCleaner.clean(property.value) else { return nil }
            if ASCIIText.holds(outerText, name) { return name }
            guard TextCleaner.clean(property.text) == nil,
                  properties[..<position].reversed().prefix(while: { $0.order > outer.order }).allSatisfy({ between.contains($0.name) })
            else { return nil }
            return name
        }
        return nil
    }

    /// The microdata properties called `name`, in document order.
    func properties(named name: String) -> [Property] {
        (propertiesByName[name] ?? []).map { properties[$0] }
    }

    /// The best-placed non-empty microdata value among `names`, tried in
    /// priority order (see `bestPlacedProperty`).
    func microdataText(_ names: [String]) -> Picked<String>? {
        for name in names {
            if let text = bestPlacedProperty(named: name, { TextCleaner.clean($0.value) }) {
                return Picked(value: text, source: "microdata:\(name)")
            }
        }
        return nil
    }

    /// What `value` reads from the best-placed property called `name`
    /// (`MetadataRules.BodyPlace`): one in the head or the lead article's
    /// header first, then the article's, then elsewhere; one in navigation,
    /// an aside, a form or the page footer (a related article's `headline`,
    /// a teaser's `datePublished`) only when there is no other. The first
    /// at its place wins.
    func bestPlacedProperty<Value>(named name: String, _ value: (Property) -> Value?) -> Value? {
        guard let positions = propertiesByName[name] else { return nil }
        return MetadataRules.best(of: positions.lazy.map { properties[$0] },
                                  place: { lead.place(of: $0.context, inBody: $0.inBody) }, value)?.value
    }

    /// The non-empty microdata values called `name` at the best place
    /// (`bestPlacedProperty`'s) that follow one another with only
    /// properties named in `between` among them, in document order: a
    /// byline's several `itemprop=author` people (their `name`, `url`),
    /// not the authors of a list of other articles (a `headline` between).
    func bestPlacedProperties<Value>(named name: String, between: Set<String>, _ value: (Property) -> Value?) -> [Value] {
        guard let positions = propertiesByName[name] else { return [] }
        var best: (place: MetadataRules.BodyPlace, last: Int)?
        var values: [Value] = []
        for position in positions {
            let property = properties[position]
            let place = max(lead.place(of: property.context, inBody: property.inBody), .leadHeader)
            if let best, place > best.place { continue }
            guard let found = value(property) else { continue }
            if let best, place == best.place {
                guard properties[(best.last + 1)..<position].allSatisfy({ between.contains($0.name) }) else { continue }
            } else {
                values = []
            }
            best = (place, position)
            values.append(found)
        }
        return values
    }

    /// The first non-empty `<title>`, preferring the head's.
    func titleText() -> String? { cleanedTitle }
}

/// Keys and tokens, built on the UTF-8 bytes where they are plain ASCII (the
/// usual case: every page has dozens of metas and links, and `Character`
/// work showed in profiles), else the Unicode way.
extension PageIndex {
    /// A meta's keys: its `property` and `name` trimmed and lowercased (when
    /// not empty), each of their white-space separated names, and
    /// `http-equiv:` with its value; sorted, without repeats.
    static func metaKeys(of element: HTMLElement) -> [String] {
        // One pass over the attributes, the first of each name (as the
        // element's subscript reads them).
        var property: String?, name: String?, equiv: String?
        for pair in element.attributeList {
            switch pair.name {
            case "property": if property == nil { property = pair.value }
            case "name": if name == nil { name = pair.value }
            case "http-equiv": if equiv == nil { equiv = pair.value }
            default: break
            }
        }
        // The usual meta: one key, one name in it.
        if equiv == nil, let value = property == nil ? name : (name == nil ? property : nil) {
            var key = normalizedKey(value)
            if !key.withUTF8({ $0.contains(where: WhiteSpaceByte.isWhitespace) }) { return key.isEmpty ? [] : [key] }
        }
        var keys: [String] = []
        for value in [property, name] {
            guard let value else { continue }
            let key = normalizedKey(value)
            // RDFa allows several names in one attribute ("og:title twitter:title"): each counts.
            if key.utf8.contains(where: WhiteSpaceByte.isWhitespace) {
                for token in key.split(whereSeparator: \.isWhitespace) where !keys.contains(String(token)) {
                    keys.append(String(token))
                }
            } else if !key.isEmpty, !keys.contains(key) {
                keys.append(key)
            }
        }
        if let equiv {
            let key = "http-equiv:" + normalizedKey(equiv)
            if !keys.contains(key) { keys.append(key) }
        }
        if keys.count > 1 { keys.sort() }
        return keys
    }

    /// `value` without leading and trailing white space, lowercased; the
    /// same string (no copy) when it is already that.
    static func normalizedKey(_ value: String) -> String {
        var value = value
        let plain = value.withUTF8 { bytes in
            guard let first = bytes.first, let last = bytes.last else { return true }
            return !WhiteSpaceByte.isWhitespace(first) && !WhiteSpaceByte.isWhitespace(last)
                && !bytes.contains { $0 >= 0x80 || ASCIIByte.isUppercase($0) }
        }
        return plain ? value : value.trimmedWhitespace.lowercased()
    }

    /// The white-space separated tokens of `value`, lowercased (`rel`), in order.
    static func tokens(_ value: String) -> [String] {
        // Most rels are one lowercase token: the value itself, no copy.
        if !value.isEmpty, !value.utf8.contains(where: { $0 >= 0x80 || WhiteSpaceByte.isWhitespace($0) || ASCIIByte.isUppercase($0) }) {
            return [value]
        }
        guard value.utf8.allSatisfy({ $0 < 0x80 }) else {
            return value.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        }
        return value.utf8.split(whereSeparator: WhiteSpaceByte.isWhitespace).map { token in
            let lowered = token.contains(where: ASCIIByte.isUppercase)
            return lowered ? String(decoding: token.map(ASCIIByte.lowercased), as: UTF8.self)
                : String(decoding: token, as: UTF8.self)
        }
    }
}
