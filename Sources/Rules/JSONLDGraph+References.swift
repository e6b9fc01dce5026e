import JSON

/// Following a graph's references: the names and URLs a value gives, through
/// `{"@id": …}` references to the nodes that define them.
extension JSONLDGraph {
    /// The full node for a reference (`{"@id": …}` alone), as Yoast-style
    /// graphs write authors, publishers and images: the first node with that
    /// `@id` and more members; other nodes as they are.
    func dereference(_ node: Node) -> Node {
        guard let id = node["@id"]?.stringValue, node.count <= 2, let fuller = fullerNodes[id] else { return node }
        return (node.count == 1 ? fuller.overOne : fuller.overTwo) ?? node
    }

    /// References one walk of `names` or `urls` follows at most. A graph
    /// may refer to itself (`{"@id": "x", "name": {"@id": "x"}}`) or fan
    /// out (`"name": [{"@id": "y"}, {"@id": "y"}]` at every level), and a
    /// walk that followed every reference would never end, or take
    /// exponential time; real graphs follow one or two.
    static let referencesFollowed = 32

    /// Values one walk visits at most inside the nodes its references lead
    /// to. Many nodes may refer to one node of thousands of names or URLs,
    /// and without a bound the rules' work would grow with the square of the
    /// page; a node's own values need none (each rule walks each of them
    /// once), so an article's own list of 40 images is read whole.
    static let valuesVisited = 32

    /// What one walk may still spend.
    struct Walk {
        var references = JSONLDGraph.referencesFollowed
        var values = JSONLDGraph.valuesVisited

        /// Spends one value when the walk is inside a node a reference led
        /// to (`borrowed`); false when none is left.
        mutating func visit(borrowed: Bool) -> Bool {
            guard borrowed else { return true }
            guard values > 0 else { return false }
            values -= 1
            return true
        }
    }

    /// Names from a string, an object with `name`, or an array of either.
    func names(_ value: JSONValue?) -> [String] {
        var walk = Walk()
        return names(value, walk: &walk, borrowed: false)
    }

    /// URLs from a string, an object with `url`/`contentUrl`, or an array of either.
    func urls(_ value: JSONValue?) -> [String] {
        var walk = Walk()
        return urls(value, walk: &walk, borrowed: false)
    }

    /// `dereference` while the walk's references last: each one followed
    /// spends one, and what follows is `borrowed`.
    private func follow(_ node: Node, walk: inout Walk, borrowed: inout Bool) -> Node {
        guard walk.references > 0 else { return node }
        let target = dereference(node)
        if target.count != node.count {
            walk.references -= 1
            borrowed = true
        }
        return target
    }

    /// Recursion follows the parsed tree, whose depth the parser bounds, and
    /// at most `walk`'s references out of it.
    private func names(_ value: JSONValue?, walk: inout Walk, borrowed: Bool) -> [String] {
        guard value != nil, walk.visit(borrowed: borrowed) else { return [] }
        var borrowed = borrowed
        switch value {
        case .string(let string):
            return TextCleaner.clean(string).map { [$0] } ?? []
        case .object(let node):
            let node = follow(node, walk: &walk, borrowed: &borrowed)
            return names(node["name"], walk: &walk, borrowed: borrowed)
        case .array(let elements):
            var found: [String] = []
            for element in elements where !borrowed || walk.values > 0 {
                found += names(element, walk: &walk, borrowed: borrowed)
            }
            return found
        default:
            return []
        }
    }

    private func urls(_ value: JSONValue?, walk: inout Walk, borrowed: Bool) -> [String] {
        guard value != nil, walk.visit(borrowed: borrowed) else { return [] }
        var borrowed = borrowed
        switch value {
        case .string(let string):
            return [string]
        case .object(let node):
            let node = follow(node, walk: &walk, borrowed: &borrowed)
            for key in ["url", "contentUrl"] {
                let found = urls(node[key], walk: &walk, borrowed: borrowed)
                if !found.isEmpty { return found }
            }
            return []
        case .array(let elements):
            var found: [String] = []
            for element in elements where !borrowed || walk.values > 0 {
                found += urls(element, walk: &walk, borrowed: borrowed)
            }
            return found
        default:
            return []
        }
    }
}
