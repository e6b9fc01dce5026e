import JSON
import Metadata

/// GitHub's REST API (v3) for github.com links: a repository (and a file
/// or folder in it, shown as its repository), an issue, a pull request
/// (with merged and draft state), a commit, a release, and a gist; with a
/// token, a discussion, from the GraphQL API (REST has none).
public struct GitHubEngine: SiteEngine {
    public let name = "github"
    public let shapes = [
        "github.com/OWNER/REPO", "github.com/OWNER/REPO/issues/N", "github.com/OWNER/REPO/pull/N",
        "github.com/OWNER/REPO/commit/SHA", "github.com/OWNER/REPO/releases/tag/TAG",
        "github.com/OWNER/REPO/blob/REF/PATH", "github.com/OWNER/REPO/tree/REF/PATH", "gist.github.com/USER/ID",
        "github.com/OWNER/REPO/discussions/N (with a token)",
    ]
    public static let apiHost = "api.github.com"

    public init() {}

    /// First path segments that are GitHub's own pages, not an owner.
    static let reserved: Set<String> = [
        "about", "apps", "collections", "customer-stories", "enterprise", "events", "explore", "features",
        "login", "marketplace", "new", "notifications", "orgs", "organizations", "pricing", "search",
        "settings", "site", "sponsors", "topics", "trending", "users", "security", "readme", "codespaces",
    ]

    public func request(for url: SiteURL) -> SiteRequest? {
        let s = url.segments
        if url.host == "gist.github.com" {
            guard s.count == 2, SiteURL.isName(s[0]), SiteURL.isName(s[1]) else { return nil }
            return make("gists/\(s[1])", kind: "gist", parts: [:])
        }
        guard url.host == "github.com" || url.host == "www.github.com", s.count >= 2,
            !Self.reserved.contains(s[0].lowercased()), SiteURL.isName(s[0]), SiteURL.isName(s[1])
        else { return nil }
        let repo = "\(s[0])/\(s[1].hasSuffix(".git") ? String(s[1].dropLast(4)) : s[1])"
        let parts = ["repository": repo]
        switch (s.count, s.count > 2 ? s[2] : "") {
        case (2, _):
            return make("repos/\(repo)", kind: "repository", parts: parts)
        case (4, "issues") where SiteURL.isNumber(s[3]):
            return make("repos/\(repo)/issues/\(s[3])", kind: "issue", parts: parts)
        case (4...5, "pull") where SiteURL.isNumber(s[3]):
            return make("repos/\(repo)/pulls/\(s[3])", kind: "pullRequest", parts: parts)
        case (4, "discussions"):
            return discussion(owner: s[0], name: String(repo.dropFirst(s[0].count + 1)), number: s[3], parts: parts)
        case (4, "commit") where SiteURL.isName(s[3]):
            return make("repos/\(repo)/commits/\(s[3])", kind: "commit", parts: parts.merging(["sha": s[3]]) { $1 })
        case (5, "releases") where s[3] == "tag" && SiteURL.isPathSafe(s[4]):
            return make("repos/\(repo)/releases/tags/\(s[4])", kind: "release", parts: parts)
        case (4..., "blob"), (4..., "tree"):
            guard s[3...].allSatisfy(SiteURL.isPathSafe) else { return nil }
            var parts = parts
            parts["path"] = s.count > 4 ? s[4...].joined(separator: "/") : ""
            parts["ref"] = s[3]
            return make("repos/\(repo)", kind: s[2] == "blob" ? "file" : "folder", parts: parts)
        default:
            return nil
        }
    }

    private func make(_ path: String, kind: String, parts: [String: String]) -> SiteRequest {
        var request = SiteRequest(engine: name, url: "https://\(Self.apiHost)/\(path)", kind: kind)
        request.headers = ["Accept: application/vnd.github+json", "X-GitHub-Api-Version: 2022-11-28"]
        request.token = "github"
        request.tokenHost = Self.apiHost
        request.parts = parts
        return request
    }

    /// The GraphQL query for a discussion (REST v3 has none). GraphQL
    /// answers only with a token, so the request requires one.
    private func discussion(owner: String, name: String, number: String, parts: [String: String]) -> SiteRequest? {
        guard SiteURL.isNumber(number), let number = Int(number),
            let body = try? WireJSON.bytes(of: GraphQLQuery(
                query: Self.discussionQuery, variables: .init(owner: owner, name: name, number: number)))
        else { return nil }
        var request = make("graphql", kind: "discussion", parts: parts)
        request.headers = ["Accept: application/json"]
        request.body = body
        request.requiresToken = true
        return request
    }

    /// A GraphQL request's body; its fields in this order, so one
    /// discussion's query is always the same bytes (record and replay).
    struct GraphQLQuery: Encodable {
        struct Variables: Encodable {
            var owner: String
            var name: String
            var number: Int
        }
        var query: String
        var variables: Variables
    }

    static let discussionQuery = """
        query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { \
        discussion(number: $number) { title number body createdAt closed closedAt isAnswered upvoteCount \
        author { login } category { name } comments { totalCount } } } }
        """

    /// A 403 or 429 with `X-RateLimit-Remaining: 0` holds the API until
    /// `X-RateLimit-Reset` (at most an hour); `Retry-After` counts too.
    public func hold(status: Int, field: (String) -> String?, now: Double) -> Int? {
        guard status == 403 || status == 429 else { return nil }
        if let after = field("retry-after").flatMap({ Int($0) }), after > 0 { return min(after, 3600) }
        guard field("x-ratelimit-remaining") == "0" else { return nil }
        let reset = field("x-ratelimit-reset").flatMap { Double($0) } ?? (now + 60)
        return Int(min(max(reset - now, 1), 3600))
    }

    /// A repository's latest release (`releases/latest`; a 404 when it has
    /// none); a commit's check runs, public for public repositories.
    public func followUps(after reading: SiteReading, for request: SiteRequest) -> [SiteRequest] {
        guard let repo = request.parts["repository"] else { return [] }
        switch request.kind {
        case "repository":
            return [make("repos/\(repo)/releases/latest", kind: "latestRelease", parts: request.parts)]
        case "commit":
            guard let sha = request.parts["sha"] else { return [] }
            return [make("repos/\(repo)/commits/\(sha)/check-runs?per_page=100", kind: "checks", parts: request.parts)]
        default:
            return []
        }
    }

    public func add(_ bytes: [UInt8], of followUp: SiteRequest, to reading: inout SiteReading) {
        guard case .success(let answer) = JSONParser.parse(bytes) else { return }
        switch followUp.kind {
        case "latestRelease":
            reading.metadata.site?.latestRelease = answer["tag_name"]?.text
        case "checks":
            reading.metadata.site?.checks = answer["check_runs"]?.arrayValue.flatMap(Self.checks)
        default:
            break
        }
    }

    /// The state of a commit's check runs as GitHub's own mark shows it: a
    /// failed one fails them all, then one still running leaves them pending.
    static func checks(_ runs: [JSONValue]) -> String? {
        guard !runs.isEmpty else { return nil }
        let failed: Set<String> = ["failure", "timed_out", "cancelled", "action_required", "startup_failure"]
        if runs.contains(where: { $0["conclusion"]?.text.map(failed.contains) == true }) { return "failure" }
        if runs.contains(where: { $0["status"]?.text != "completed" }) { return "pending" }
        return "success"
    }

    public func read(_ answer: JSONValue, for request: SiteRequest, pageURL: String) -> SiteReading? {
        guard case .object = answer else { return nil }
        var site = SiteInfo(engine: name, kind: request.kind)
        site.repository = request.parts["repository"]
        var metadata = LinkMetadata(originalURL: pageURL)
        metadata.url = pageURL
        metadata.siteName = "GitHub"
        switch request.kind {
        case "repository", "file", "folder":
            guard let fullName = answer["full_name"]?.text else { return nil }
            site.stars = answer["stargazers_count"]?.wholeNumber
            site.language = answer["language"]?.text
            site.license = answer["license"]?["spdx_id"]?.text.flatMap { $0 == "NOASSERTION" ? nil : $0 }
            site.createdAt = answer["created_at"]?.text
            site.repository = fullName
            if request.kind == "repository" {
                metadata.title = fullName
            } else {
                let path = request.parts["path"] ?? ""
                metadata.title = path.isEmpty ? "\(fullName) at \(request.parts["ref"] ?? "")" : "\(path) · \(fullName)"
            }
            metadata.summary = SiteText.summary(answer["description"]?.text)
            metadata.author = answer["owner"]?["login"]?.text
            metadata.image = MediaResource(url: "https://opengraph.githubassets.com/1/\(fullName)")
        case "issue", "pullRequest":
            guard let title = answer["title"]?.text, let number = answer["number"]?.wholeNumber else { return nil }
            metadata.title = title
            metadata.summary = SiteText.summary(answer["body"]?.text)
            metadata.author = answer["user"]?["login"]?.text
            metadata.publishedTime = answer["created_at"]?.text
            site.number = number
            site.comments = answer["comments"]?.wholeNumber
            site.labels = answer["labels"]?.arrayValue?.compactMap { $0["name"]?.text }
            if site.labels?.isEmpty == true { site.labels = nil }
            site.createdAt = answer["created_at"]?.text
            site.closedAt = answer["closed_at"]?.text
            // An issue link to a pull request gets its merge date from the issue's `pull_request`.
            site.mergedAt = answer["merged_at"]?.text ?? answer["pull_request"]?["merged_at"]?.text
            if answer["pull_request"]?.objectValue != nil { site.kind = "pullRequest" }
            let state = answer["state"]?.text
            site.state = site.mergedAt != nil ? "merged"
                : (state == "open" && answer["draft"] == .bool(true)) ? "draft" : state
        case "commit":
            guard let sha = answer["sha"]?.text, let message = answer["commit"]?["message"]?.text else { return nil }
            metadata.title = SiteText.firstLine(message) ?? String(sha.prefix(7))
            let rest = message.split(separator: "\n", maxSplits: 1).dropFirst().first.map(String.init)
            metadata.summary = SiteText.summary(rest)
            metadata.author = answer["author"]?["login"]?.text ?? answer["commit"]?["author"]?["name"]?.text
            metadata.publishedTime = answer["commit"]?["author"]?["date"]?.text
            site.version = String(sha.prefix(7))
            site.createdAt = metadata.publishedTime
        case "release":
            guard let tag = answer["tag_name"]?.text else { return nil }
            metadata.title = answer["name"]?.text ?? tag
            metadata.summary = SiteText.summary(answer["body"]?.text)
            metadata.author = answer["author"]?["login"]?.text
            metadata.publishedTime = answer["published_at"]?.text
            site.version = tag
            site.state = answer["draft"] == .bool(true) ? "draft" : answer["prerelease"] == .bool(true) ? "prerelease" : nil
            site.createdAt = metadata.publishedTime
        case "discussion":
            // A GraphQL answer with `errors` (no such discussion, the token
            // refused for it) has no discussion: the page is read.
            guard let discussion = answer["data"]?["repository"]?["discussion"], case .object = discussion,
                let title = discussion["title"]?.text, let number = discussion["number"]?.wholeNumber
            else { return nil }
            metadata.title = title
            metadata.summary = SiteText.summary(discussion["body"]?.text)
            metadata.author = discussion["author"]?["login"]?.text
            metadata.publishedTime = discussion["createdAt"]?.text
            site.number = number
            site.state = discussion["closed"] == .bool(true) ? "closed" : "open"
            site.accepted = discussion["isAnswered"]?.flag
            site.score = discussion["upvoteCount"]?.wholeNumber
            site.comments = discussion["comments"]?["totalCount"]?.wholeNumber
            site.category = discussion["category"]?["name"]?.text
            site.createdAt = metadata.publishedTime
            site.closedAt = discussion["closedAt"]?.text
        case "gist":
            guard let id = answer["id"]?.text else { return nil }
            let files = answer["files"]?.objectValue?.keys.sorted() ?? []
            metadata.title = answer["description"]?.text ?? files.first ?? id
            metadata.summary = files.isEmpty ? nil : files.joined(separator: ", ")
            metadata.author = answer["owner"]?["login"]?.text
            metadata.publishedTime = answer["created_at"]?.text
            site.comments = answer["comments"]?.wholeNumber
            site.createdAt = metadata.publishedTime
        default:
            return nil
        }
        metadata.site = site
        return SiteReading(metadata: metadata)
    }
}
