import FoundationEssentials
import JSON
import TextTrimming

/// The schema.org nodes of a page's `application/ld+json` blocks, flattened:
/// top-level arrays, `@graph` arrays and `mainEntity` objects all become
/// nodes in document order. A block that does not parse is skipped.
///
/// Blocks are read by the one JSON parser (`JSONParser`), with its
/// decisions where the grammar allows what a value cannot hold: a repeated
/// key keeps its last value, an unpaired surrogate escape reads as U+FFFD, a
/// number past `Double`'s range as the largest finite double, and nesting
/// past `JSONParser.maximumDepth` is refused (the block is skipped).
struct JSONLDGraph {
    typealias Node = [String: JSONValue]

    /// The nodes, in document order; at most `maximumNodes`.
    private(set) var nodes: [Node] = []

    /// Nodes describing the page's content, best first: articles, videos and
    /// other creative works, then the web page node, never organisations,
    /// people, sites or breadcrumbs. Sorted out once: a dozen rules read them.
    private(set) var contentNodes: [Node] = []

    /// For each `@id`, the first node with more than one member and the
    /// first with more than two: what a reference of one or two members
    /// stands for (`dereference`), found at once rather than by a search of
    /// every node for every reference.
    private(set) var fullerNodes: [String: (overOne: Node?, overTwo: Node?)] = [:]

    /// Nodes kept from a page's blocks at most, the first in document order.
    /// The rules walk every node once or twice each (the open corpus's most
    /// is 35 on a page); 2 MiB of `[{},{},…]` would be 700,000.
    static let maximumNodes = 100

    init(scripts: [String]) {
        for script in scripts where nodes.count < JSONLDGraph.maximumNodes {
            if let value = JSONLDGraph.parse(script) { flatten(value) }
        }
        for node in nodes {
            guard let id = node["@id"]?.stringValue, node.count > 1 else { continue }
            var fuller = fullerNodes[id] ?? (nil, nil)
            if fuller.overOne == nil { fuller.overOne = node }
            if fuller.overTwo == nil, node.count > 2 { fuller.overTwo = node }
            fullerNodes[id] = fuller
        }
        let content = nodes.filter { !JSONLDGraph.types(of: $0).contains(where: JSONLDGraph.nonContentTypes.contains) }
        let isContainer = { (node: Node) in JSONLDGraph.types(of: node).contains(where: JSONLDGraph.containerTypes.contains) }
        contentNodes = content.filter { !isContainer($0) } + content.filter(isContainer)
    }

    /// Nodes of `value` in document order. Recursion follows the parsed
    /// tree, whose depth the parser bounds.
    private mutating func flatten(_ value: JSONValue) {
        switch value {
        case .array(let elements):
            elements.forEach { flatten($0) }
        case .object(let node):
            guard nodes.count < JSONLDGraph.maximumNodes else { return }
            nodes.append(node)
            if let graph = node["@graph"] { flatten(graph) }
            if let main = node["mainEntity"], case .object = main { flatten(main) }
        default:
            break
        }
    }

    /// Parses one block leniently. Pages wrap JSON-LD in HTML comments or
    /// CDATA and leave raw newlines inside strings, which strict JSON rejects;
    /// those are repaired. Anything else that fails is dropped, not fatal.
    static func parse(_ script: String) -> JSONValue? {
        var text = script.trimmedWhitespace
        // Only the ends are unwrapped: the same marks inside a string are content.
        var changed = true
        while changed {
            changed = false
            for open in ["/*<![CDATA[*/", "//<![CDATA[", "<![CDATA[", "<!--"] where text.hasPrefix(open) {
                text = String(text.dropFirst(open.count)).trimmedWhitespace
                changed = true
            }
            for close in ["/*]]>*/", "//]]>", "]]>", "//-->", "-->"] where text.hasSuffix(close) {
                text = String(text.dropLast(close.count)).trimmedWhitespace
                changed = true
            }
        }
        if text.hasSuffix(";") { text.removeLast() }
        guard !text.isEmpty else { return nil }
        if let value = document(text) { return value }
        // Control characters are invalid inside JSON strings but harmless as spaces.
        let repaired = String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.value < 0x20 ? " " : $0
        }))
        return document(repaired)
    }

    /// The value of `text` when it is one JSON object or array: a bare
    /// string, number or literal is no JSON-LD document.
    static func document(_ text: String) -> JSONValue? {
        var text = text
        guard case .success(let value) = text.withUTF8(JSONParser.parse) else { return nil }
        switch value {
        case .object, .array: return value
        default: return nil
        }
    }

    /// Types that describe the site, people or page furniture rather than the
    /// page's own content: their `name`/`description` is not the page's.
    private static let nonContentTypes: Set<String> = [
        "organization", "corporation", "newsmediaorganization", "website", "person",
        "breadcrumblist", "listitem", "imageobject", "sitenavigationelement", "searchaction",
        "brand", "place", "postaladdress", "contactpoint", "entrypoint", "readaction",
        "wpheader", "wpfooter", "wpsidebar", "localbusiness", "educationalorganization",
        "collegeoruniversity", "governmentorganization", "itemlist", "offer", "rating",
        "aggregaterating", "thing", "speakable", "speakablespecification",
    ]

    /// Types that describe the page as a container: used only after nodes for the content itself.
    private static let containerTypes: Set<String> = [
        "webpage", "itempage", "collectionpage", "profilepage", "aboutpage", "contactpage",
        "searchresultspage", "faqpage", "qapage", "medicalwebpage", "checkoutpage", "realestatelisting",
    ]

    static func types(of node: Node) -> [String] {
        switch node["@type"] {
        case .string(let type): [type.lowercased()]
        case .array(let types): types.compactMap { $0.stringValue?.lowercased() }
        default: []
        }
    }

    /// Nodes of one of `types` (lowercased), in document order.
    func nodes(ofType types: Set<String>) -> [Node] {
        nodes.filter { JSONLDGraph.types(of: $0).contains(where: types.contains) }
    }

    /// The first non-empty text under `key` in `nodes`.
    static func text(_ key: String, in nodes: [Node]) -> String? {
        for node in nodes {
            if let text = TextCleaner.clean(node[key]?.stringValue) { return text }
        }
        return nil
    }
}
