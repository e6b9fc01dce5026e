/// The line of each key in a configuration file, found by reading its
/// lines, since the TOML parser does not say where a value was: a key is
/// its dotted name under the last `[table]` header, and `[[site]]` entries
/// are counted, so `site#2.timeout` is the third rule's `timeout`.
struct KeyLines {
    private var lines: [String: Int] = [:]
    private var headers: [String: Int] = [:]

    init(_ text: String) {
        var number = 0
        var section = ""
        var arrayCounts: [String: Int] = [:]
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("[[") {
                let name = Self.name(line.dropFirst(2).prefix { $0 != "]" })
                let index = arrayCounts[name, default: -1] + 1
                arrayCounts[name] = index
                section = "\(name)#\(index)"
                headers[section] = number
            } else if line.hasPrefix("[") {
                section = Self.name(line.dropFirst().prefix { $0 != "]" })
                headers[section] = headers[section] ?? number
            } else if let equals = line.firstIndex(of: "="), !line.hasPrefix("#") {
                let key = Self.name(line[..<equals])
                guard !key.isEmpty else { continue }
                let full = section.isEmpty ? key : "\(section).\(key)"
                if lines[full] == nil { lines[full] = number }
            }
        }
    }

    /// The line of `key` (`timeout`, `hover.fetch`, `site#0.headers`): its
    /// own line, else its table's header, else 1.
    func line(of key: String) -> Int {
        if let line = lines[key] { return line }
        var prefix = Substring(key)
        while let dot = prefix.lastIndex(of: ".") {
            prefix = prefix[..<dot]
            if let line = lines[String(prefix)] ?? headers[String(prefix)] { return line }
        }
        return headers[key] ?? 1
    }

    /// A key or header as written, without spaces and quotes around its parts.
    private static func name(_ text: Substring) -> String {
        text.split(separator: ".").map { part in
            part.trimmingCharacters(in: " \t\"'")
        }.joined(separator: ".")
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        return String(drop { characters.contains($0) }.reversed().drop { characters.contains($0) }.reversed())
    }
}
