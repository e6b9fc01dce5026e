/// `saved` (request): the saved links, newest first → an array of
/// `LinkMetadata`, each with `savedAt` and `tags`.
public struct SavedParams: Codable, Sendable, Equatable {
    public static let method = "saved"

    /// Only the links with this tag.
    public var tag: String?
    /// At most this many (`ParamRanges.savedLimit`; default all).
    public var limit: Double?
    /// Skip this many first (`ParamRanges.savedOffset`; default 0).
    public var offset: Double?

    public init(tag: String? = nil, limit: Double? = nil, offset: Double? = nil) {
        self.tag = tag
        self.limit = limit
        self.offset = offset
    }

    public func validationError() -> String? {
        ParamRanges.savedLimit.check(limit, field: "limit")
            ?? ParamRanges.savedOffset.check(offset, field: "offset")
            ?? ParamRanges.checkTags(tag.map { [$0] }, field: "tag")
    }
}
