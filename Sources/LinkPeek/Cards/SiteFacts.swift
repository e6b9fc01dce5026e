/// The one line a card shows for a preview a site engine read (`SiteInfo`):
/// "merged · #4123 · 12 comments · bug, performance",
/// "✓ accepted · score 231 · 14 answers", "★ 1234 · Swift · MIT · latest v1.2.0",
/// "commit 1a2b3c4 · 2026-01-05 · ✓ checks passed".
/// Dates are shown as the day (YYYY-MM-DD), so a cached card never goes stale.
public enum SiteFacts {
    public static func line(_ site: SiteInfo) -> String? {
        var parts: [String] = []
        switch site.kind {
        case "issue", "pullRequest", "mergeRequest":
            if let state = site.state { parts.append(state) }
            if let number = site.number { parts.append("#\(number)") }
            if let comments = site.comments { parts.append(count(comments, "comment")) }
            if let labels = site.labels, !labels.isEmpty { parts.append(labels.joined(separator: ", ")) }
        case "question", "answer":
            if site.accepted == true { parts.append("✓ accepted") }
            if let state = site.state { parts.append(state) }
            if let score = site.score { parts.append("score \(score)") }
            if let answers = site.answers { parts.append(count(answers, "answer")) }
            if let tags = site.tags, !tags.isEmpty { parts.append(tags.joined(separator: ", ")) }
        case "discussion":
            if site.accepted == true { parts.append("✓ answered") }
            if let state = site.state { parts.append(state) }
            if let number = site.number { parts.append("#\(number)") }
            if let comments = site.comments { parts.append(count(comments, "comment")) }
            if let category = site.category { parts.append(category) }
        case "repository", "file", "folder":
            if let stars = site.stars { parts.append("★ \(stars)") }
            if let language = site.language { parts.append(language) }
            if let license = site.license { parts.append(license) }
            if let release = site.latestRelease { parts.append("latest \(release)") }
        case "commit":
            if let version = site.version { parts.append("commit \(version)") }
            if let day = day(site.createdAt) { parts.append(day) }
            if let checks = site.checks { parts.append(checksWords[checks] ?? "checks \(checks)") }
        case "release":
            if let version = site.version { parts.append(version) }
            if let state = site.state { parts.append(state) }
            if let day = day(site.createdAt) { parts.append(day) }
        case "paper":
            if let category = site.category { parts.append(category) }
            if let authors = site.authors { parts.append(count(authors.count, "author")) }
            if let day = day(site.createdAt) { parts.append("submitted \(day)") }
        case "package":
            if let version = site.version { parts.append(version.first?.isNumber == true ? "v\(version)" : version) }
            if let license = site.license { parts.append(license) }
            if let day = day(site.createdAt) { parts.append(day) }
        case "gist":
            parts.append("gist")
            if let comments = site.comments { parts.append(count(comments, "comment")) }
        default:
            if let description = site.description { parts.append(description) }
            if let language = site.language { parts.append(language) }
        }
        let line = parts.compactMap { CardText.clean($0) }.joined(separator: " · ")
        return line.isEmpty ? nil : line
    }

    /// A commit's checks, as the card says them.
    static let checksWords = ["success": "✓ checks passed", "failure": "✗ checks failed", "pending": "checks pending"]

    private static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }

    private static func day(_ instant: String?) -> String? {
        guard let instant, instant.utf8.count >= 10 else { return nil }
        return String(instant.prefix(10))
    }
}
