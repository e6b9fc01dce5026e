extension OptionKey {
    /// The one options table of the docs (README, `protocol/config.md`),
    /// from `all`: `linkpeek config keys --markdown` prints it and a test
    /// checks that the docs hold it as printed.
    public static func markdownTable() -> String {
        var lines = [
            "| key | flag | environment | allowed | default | what it does |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for key in all {
            let cells = [
                "`\(key.name)`", key.flag.map { "`\($0)`" } ?? "", "`\(key.environmentName)`",
                key.kind.allowed, key.defaultText, key.summary,
            ]
            lines.append("| " + cells.map { $0.replacingPipes() }.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    fileprivate func replacingPipes() -> String {
        split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")
    }
}
