/// `save` (request): saves a link — fetching its preview when nothing is
/// cached — and pins the preview so that it is never evicted → the
/// `LinkMetadata` with `savedAt` and `tags`. Saving a saved link again keeps
/// its `savedAt` and replaces its tags when `tags` is given. A link whose
/// page fails is saved all the same, with what is known: the URL, `title`
/// when given, and the failure.
public struct SaveParams: Codable, Sendable, Equatable {
    public static let method = "save"

    public var url: String
    public var tags: [String]?
    /// The link's title as the client knows it (the words of a Markdown
    /// link, say): used when the page gives none, or cannot be fetched.
    public var title: String?

    public init(url: String, tags: [String]? = nil, title: String? = nil) {
        self.url = url
        self.tags = tags
        self.title = title
    }

    public func validationError() -> String? {
        ParamRanges.checkURL(url, field: "url") ?? ParamRanges.checkTags(tags, field: "tags")
            ?? ParamRanges.checkSavedTitle(title, field: "title")
    }
}
