/// What a site engine read from a site's own API (`site` in a preview):
/// the facts a page's `<head>` does not give, such as whether a pull
/// request is merged or a question has an accepted answer. One flat shape
/// for every engine; `engine` and `kind` say which fields to expect
/// (`protocol/site.md` lists them per kind). Absent fields are omitted.
public struct SiteInfo: Codable, Sendable, Equatable {
    /// The engine's name (`github`, `stackexchange`, `wikipedia`…).
    public var engine: String
    /// What the URL names (`repository`, `issue`, `pullRequest`, `question`…).
    public var kind: String
    /// `open`, `closed`, `merged` or `draft`.
    public var state: String?
    /// An issue's or pull request's number.
    public var number: Int?
    public var labels: [String]?
    public var comments: Int?
    public var stars: Int?
    public var language: String?
    public var license: String?
    public var version: String?
    /// A short description of what the link names (Wikipedia's).
    public var description: String?
    /// A question's score, its answers, and whether one is accepted (a
    /// GitHub discussion: its upvotes, and whether it is answered).
    public var score: Int?
    public var answers: Int?
    public var accepted: Bool?
    public var tags: [String]?
    /// ISO 8601 instants as the API gave them.
    public var createdAt: String?
    public var closedAt: String?
    public var mergedAt: String?
    /// The repository (`owner/name`) an issue, commit or release is in; a
    /// package's repository URL.
    public var repository: String?
    /// A paper's authors, every one in order; its primary category, last
    /// update and PDF (arXiv's); `category` is also a discussion's.
    public var authors: [String]?
    public var category: String?
    public var updatedAt: String?
    public var pdf: String?
    /// A repository's latest release (its tag).
    public var latestRelease: String?
    /// A commit's checks where public: `success`, `failure` or `pending`.
    public var checks: String?

    public init(engine: String, kind: String) {
        self.engine = engine
        self.kind = kind
    }
}
