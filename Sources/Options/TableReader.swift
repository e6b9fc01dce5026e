/// Reads a parsed configuration table into `Options`, one problem per key
/// that is unknown or not allowed, each naming its line.
struct TableReader {
    let path: String
    let text: String
    var problems: [ConfigProblem] = []
    /// The indices of `[[site]]` entries left out for want of a usable `match`.
    var droppedRules: Set<Int> = []
    /// Made on the first problem only: a good file is not read line by line.
    private var keyLines: KeyLines?

    init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    mutating func line(of key: String) -> Int {
        if keyLines == nil { keyLines = KeyLines(text) }
        return keyLines?.line(of: key) ?? 1
    }

    mutating func options(_ table: ConfigTable) -> Options {
        var options = Options()
        for (name, node) in table.entries {
            switch name {
            case "hover", "http":
                guard let inner = node.table else {
                    report(name, "must be a table of " + Self.tableKeys(name))
                    continue
                }
                for (sub, value) in inner.entries { set(name + "." + sub, value, in: &options) }
            case "site":
                guard case .array(let array) = node, array.allSatisfy({ $0.table != nil }) else {
                    report("site", "must be [[site]] tables")
                    continue
                }
                var rules: [SiteRule] = []
                for (index, entry) in array.enumerated() {
                    if let table = entry.table, let rule = siteRule(table, index: index) {
                        rules.append(rule)
                    } else {
                        droppedRules.insert(index)
                    }
                }
                options.siteRules = rules
            default:
                set(name, node, in: &options)
            }
        }
        return options
    }

    private mutating func set(_ name: String, _ node: ConfigNode, in options: inout Options) {
        guard let key = OptionKey.named(name) else {
            report(name, "is not a key of linkpeek (`linkpeek config keys` lists them)")
            return
        }
        guard let value = Self.value(node) else {
            report(name, "must be \(key.kind.allowed)")
            return
        }
        if let problem = key.problem(value) {
            report(name, problem)
            return
        }
        key.assign(&options, value)
    }

    /// `fetch, allow and deny`: the keys of a table such as `[hover]`, from `OptionKey.all`.
    static func tableKeys(_ table: String) -> String {
        let names = OptionKey.all.compactMap { key in
            key.name.hasPrefix(table + ".") ? String(key.name.dropFirst(table.count + 1)) : nil
        }
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
    }

    mutating func report(_ key: String, _ problem: String) {
        let line = line(of: key)
        problems.append(ConfigProblem(file: path, line: line, message: "\(Self.display(key)) \(problem)"))
    }

    /// `site#2.timeout` as a reader knows it: `[[site]] 3: timeout`.
    private static func display(_ key: String) -> String {
        guard key.hasPrefix("site#") else { return key }
        let dot = key.firstIndex(of: ".") ?? key.endIndex
        let index = Int(key[key.index(key.startIndex, offsetBy: 5)..<dot]) ?? 0
        return dot == key.endIndex ? "[[site]] \(index + 1)" : "[[site]] \(index + 1): \(key[key.index(after: dot)...])"
    }

    static func value(_ node: ConfigNode) -> OptionValue? {
        switch node {
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .number(Double(number))
        case .double(let number): return .number(number)
        case .string(let text): return .string(text)
        case .array(let items):
            var strings: [String] = []
            strings.reserveCapacity(items.count)
            for item in items {
                guard case .string(let string) = item else { return nil }
                strings.append(string)
            }
            return .strings(strings)
        case .table, .other: return nil
        }
    }
}
