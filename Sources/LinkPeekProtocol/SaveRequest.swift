/// `save` (request): saves a link — fetching its preview when nothing is
/// cached — and pins the preview so that it is never evicted → the
/// `LinkMetadata` with `savedAt` and `tags`. Saving a saved link again keeps
/// its `savedAt` and replaces its tags when `tags` is given.
public struct SaveParams: Codable, Sendable, Equatable {
    public static let method = "save"

    public var url: String
    public var tags: [String]?

    public init(url: String, tags: [String]? = nil) {
        self.url = url
        self.tags = tags
    }

    public func validationError() -> String? {
        ParamRanges.checkURL(url, field: "url") ?? ParamRanges.checkTags(tags, field: "tags")
    }
}
