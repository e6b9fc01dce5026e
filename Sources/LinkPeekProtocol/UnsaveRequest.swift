/// `unsave` (request): forgets a saved link → `{removed}` (false when it was
/// not saved). Its cached preview stays, evictable like any other.
public struct UnsaveParams: Codable, Sendable, Equatable {
    public static let method = "unsave"

    public var url: String

    public init(url: String) {
        self.url = url
    }

    public func validationError() -> String? {
        ParamRanges.checkURL(url, field: "url")
    }
}

/// The result of `unsave`.
public struct UnsaveResult: Codable, Sendable, Equatable {
    public var removed: Bool

    public init(removed: Bool) {
        self.removed = removed
    }
}
