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

    /// One `<link>` tag with its lowercased rel tokens.
    struct Link {
        var rels: Set<String>
        var element: HTMLElement
        var order: Int
    }

    /// One element with an `itemprop`; `value` is what microdata reads from it.
    struct Property {
        var name: String
        var value: String
        var order: Int
    }

    var metas: [Meta] = []
    /// Positions in `metas` by key, in document order: a page with thousands
    /// of metas would otherwise be scanned whole for every key a rule asks.
    private var metasByKey: [String: [Int]] = [:]
    var links: [Link] = []
    var titles: [(text: String, inBody: Bool)] = []
    var jsonLD: JSONLDGraph
    var properties: [Property] = []
    /// Positions in `properties` by name, in document order (as `metasByKey`).
    private var propertiesByName: [String: [Int]] = [:]
    /// Body elements the scanner kept as fallbacks (`HTMLElement.isFallback`),
    /// in document order; the rules use them only when nothing is declared.
    var fallbacks: [(element: HTMLElement, order: Int)] = []
    let resolver: URLResolver
    let htmlLang: String?

    init(document: HeadDocument, pageURL: String) {
        var baseHref: String?
        var scripts: [String] = []
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
                let rels = Set((element["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init))
                links.append(Link(rels: rels, element: element, order: order))
            case "meta":
                var keys = ["property", "name"].compactMap { element[$0] }
                    .map { $0.trimmedWhitespace.lowercased() }
                    .filter { !$0.isEmpty }
                if let equiv = element["http-equiv"] {
                    keys.append("http-equiv:" + equiv.trimmedWhitespace.lowercased())
                }
                if let content = element["content"] ?? element["value"], !keys.isEmpty {
                    let unique = Array(Set(keys)).sorted()
                    for key in unique { metasByKey[key, default: []].append(metas.count) }
                    metas.append(Meta(keys: unique, content: content, order: order))
                }
            default:
                break
            }
            if let prop = element["itemprop"], let value = PageIndex.microdataValue(element) {
                // itemprop may list several names ("image thumbnailUrl").
                for name in prop.lowercased().split(whereSeparator: \.isWhitespace) {
                    propertiesByName[String(name), default: []].append(properties.count)
                    properties.append(Property(name: String(name), value: value, order: order))
                }
            }
        }
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

    /// The microdata properties called `name`, in document order.
    func properties(named name: String) -> [Property] {
        (propertiesByName[name] ?? []).map { properties[$0] }
    }

    /// The first non-empty microdata value among `names`, tried in priority order.
    func microdataText(_ names: [String]) -> Picked<String>? {
        for name in names {
            for property in properties(named: name) {
                if let text = TextCleaner.clean(property.value) {
                    return Picked(value: text, source: "microdata:\(name)")
                }
            }
        }
        return nil
    }

    /// The first non-empty `<title>`, preferring the head's.
    func titleText() -> String? {
        let ordered = titles.filter { !$0.inBody } + titles.filter(\.inBody)
        return ordered.lazy.compactMap { TextCleaner.clean($0.text) }.first
    }
}
