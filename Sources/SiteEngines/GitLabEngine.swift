import JSON
import Metadata

/// GitLab's REST API (v4) on gitlab.com and on the hosts the user names
/// (`gitlabHosts`): a project, an issue, a merge request (merged and draft
/// state), a commit. `GITLAB_TOKEN` goes to gitlab.com only: a token is
/// one instance's, and another host's must never see it.
public struct GitLabEngine: SiteEngine {
    public let name = "gitlab"
    public let shapes = [
        "gitlab.com/GROUP/PROJECT (and subgroups)", "…/PROJECT/-/issues/N", "…/PROJECT/-/merge_requests/N",
        "…/PROJECT/-/commit/SHA", "the same on each of gitlabHosts",
    ]
    public static let publicHost = "gitlab.com"
    public var hosts: [String]

    public init(hosts: [String] = []) {
        self.hosts = [Self.publicHost] + hosts.map { $0.lowercased() }
    }

    static let reserved: Set<String> = ["-", "users", "explore", "help", "dashboard", "admin", "search", "api", "groups"]

    public func request(for url: SiteURL) -> SiteRequest? {
        guard url.isHTTPS, hosts.contains(url.host) else { return nil }
        let s = url.segments
        let dash = s.firstIndex(of: "-") ?? s.endIndex
        let project = Array(s[..<dash])
        guard project.count >= 2, !Self.reserved.contains(project[0]), project.allSatisfy(SiteURL.isName) else { return nil }
        let rest = Array(s[dash...].dropFirst())
        let api = "https://\(url.host)/api/v4/projects/\(project.joined(separator: "%2F"))"
        let made: (String, String)
        switch (rest.count, rest.first) {
        case (0, _) where dash == s.endIndex: made = (api, "repository")
        case (2, "issues") where SiteURL.isNumber(rest[1]): made = ("\(api)/issues/\(rest[1])", "issue")
        case (2...3, "merge_requests") where SiteURL.isNumber(rest[1]): made = ("\(api)/merge_requests/\(rest[1])", "mergeRequest")
        case (2, "commit") where SiteURL.isName(rest[1]): made = ("\(api)/repository/commits/\(rest[1])", "commit")
        default: return nil
        }
        var request = SiteRequest(engine: name, url: made.0, kind: made.1)
        request.headers = ["Accept: application/json"]
        if url.host == Self.publicHost {
            request.token = "gitlab"
            request.tokenHost = Self.publicHost
        }
        request.parts = ["repository": project.joined(separator: "/")]
        return request
    }

    public func read(_ answer: JSONValue, for request: SiteRequest, pageURL: String) -> SiteReading? {
        guard case .object = answer else { return nil }
        var site = SiteInfo(engine: name, kind: request.kind)
        site.repository = request.parts["repository"]
        var metadata = LinkMetadata(originalURL: pageURL)
        metadata.url = pageURL
        metadata.siteName = "GitLab"
        switch request.kind {
        case "repository":
            guard let path = answer["path_with_namespace"]?.text else { return nil }
            metadata.title = path
            metadata.summary = SiteText.summary(answer["description"]?.text)
            site.stars = answer["star_count"]?.wholeNumber
            site.createdAt = answer["created_at"]?.text
            site.repository = path
        case "issue", "mergeRequest":
            guard let title = answer["title"]?.text, let number = answer["iid"]?.wholeNumber else { return nil }
            metadata.title = title
            metadata.summary = SiteText.summary(answer["description"]?.text)
            metadata.author = answer["author"]?["username"]?.text
            metadata.publishedTime = answer["created_at"]?.text
            site.number = number
            site.comments = answer["user_notes_count"]?.wholeNumber
            site.labels = answer["labels"]?.arrayValue?.compactMap(\.text)
            if site.labels?.isEmpty == true { site.labels = nil }
            site.createdAt = answer["created_at"]?.text
            site.closedAt = answer["closed_at"]?.text
            site.mergedAt = answer["merged_at"]?.text
            let state = answer["state"]?.text
            let draft = answer["draft"] == .bool(true) || answer["work_in_progress"] == .bool(true)
            site.state = switch state {
            case "merged": "merged"
            case "opened": draft ? "draft" : "open"
            case "closed", "locked": "closed"
            default: nil
            }
        case "commit":
            guard let message = answer["message"]?.text ?? answer["title"]?.text else { return nil }
            metadata.title = SiteText.firstLine(message)
            metadata.summary = SiteText.summary(message.split(separator: "\n", maxSplits: 1).dropFirst().first.map(String.init))
            metadata.author = answer["author_name"]?.text
            metadata.publishedTime = answer["authored_date"]?.text
            site.version = answer["short_id"]?.text
            site.createdAt = metadata.publishedTime
        default:
            return nil
        }
        metadata.site = site
        return SiteReading(metadata: metadata)
    }
}
