import FoundationEssentials
import TextTrimming

/// The schema.org nodes of a page's `application/ld+json` blocks, flattened:
/// top-level arrays, `@graph` arrays and `mainEntity` objects all become
/// nodes in document order. A block that does not parse is skipped.
struct JSONLDGraph {
    typealias Node = [String: Any]

    private(set) var nodes: [Node] = []

    init(scripts: [String]) {
        for script in scripts {
            if let value = JSONLDGraph.parse(script) { flatten(value) }
        }
    }

    private mutating func flatten(_ value: Any) {
        if let array = value as? [Any] {
            array.forEach { flatten($0) }
        } else if let node = value as? Node {
            nodes.append(node)
            if let graph = node["@graph"] { flatten(graph) }
            if let main = node["mainEntity"] as? Node { flatten(main) }
        }
    }

    /// Parses one block leniently. Pages wrap JSON-LD in HTML comments or
    /// CDATA and leave raw newlines inside strings, which strict JSON rejects;
    /// those are repaired. Anything else that fails is dropped, not fatal.
    static func parse(_ script: String) -> Any? {
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
        if let value = try? AnyJSON.parse(text) { return value }
        // Control characters are invalid inside JSON strings but harmless as spaces.
        let repaired = String(String.UnicodeScalarView(text.unicodeScalars.map {
            $0.value < 0x20 ? " " : $0
        }))
        return try? AnyJSON.parse(repaired)
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
        if let type = node["@type"] as? String { return [type.lowercased()] }
        if let types = node["@type"] as? [Any] { return types.compactMap { ($0 as? String)?.lowercased() } }
        return []
    }

    /// Nodes describing the page's content, best first: articles, videos and
    /// other creative works, then the web page node, never organisations,
    /// people, sites or breadcrumbs.
    var contentNodes: [Node] {
        let content = nodes.filter { !JSONLDGraph.types(of: $0).contains(where: JSONLDGraph.nonContentTypes.contains) }
        let isContainer = { (node: Node) in JSONLDGraph.types(of: node).contains(where: JSONLDGraph.containerTypes.contains) }
        return content.filter { !isContainer($0) } + content.filter(isContainer)
    }

    /// Nodes of one of `types` (lowercased), in document order.
    func nodes(ofType types: Set<String>) -> [Node] {
        nodes.filter { JSONLDGraph.types(of: $0).contains(where: types.contains) }
    }

    /// The first non-empty text under `key` in `nodes`.
    static func text(_ key: String, in nodes: [Node]) -> String? {
        for node in nodes {
            if let text = TextCleaner.clean(node[key] as? String) { return text }
        }
        return nil
    }

    /// The full node for a reference (`{"@id": …}` alone), as Yoast-style
    /// graphs write authors, publishers and images; other nodes as they are.
    func dereference(_ node: Node) -> Node {
        guard let id = node["@id"] as? String, node.count <= 2 else { return node }
        return nodes.first { ($0["@id"] as? String) == id && $0.count > node.count } ?? node
    }

    /// Names from a string, an object with `name`, or an array of either.
    func names(_ value: Any?) -> [String] {
        if let string = value as? String { return TextCleaner.clean(string).map { [$0] } ?? [] }
        if let node = value as? Node { return names(dereference(node)["name"]) }
        if let array = value as? [Any] { return array.flatMap { names($0) } }
        return []
    }

    /// URLs from a string, an object with `url`/`contentUrl`, or an array of either.
    func urls(_ value: Any?) -> [String] {
        if let string = value as? String { return [string] }
        if let node = value as? Node {
            let node = dereference(node)
            for key in ["url", "contentUrl"] {
                let found = urls(node[key])
                if !found.isEmpty { return found }
            }
            return []
        }
        if let array = value as? [Any] { return array.flatMap { urls($0) } }
        return []
    }
}
