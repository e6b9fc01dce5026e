/// `cancel` (request): cancel a running fetch by its provider id. The
/// cancelled fetch is answered with -32800 "Metadata fetch cancelled.".
public struct CancelParams: Codable, Sendable, Equatable {
    public static let method = "cancel"

    public var providerId: ProviderID

    public init(providerId: ProviderID) {
        self.providerId = providerId
    }
}

/// The result of `cancel`: whether a running fetch was cancelled (false for
/// an unknown or already answered provider).
public struct CancelResult: Codable, Sendable, Equatable {
    public var cancelled: Bool

    public init(cancelled: Bool) {
        self.cancelled = cancelled
    }
}
