/// `getCached` (request): the cached `LinkMetadata` for a URL, or `null`.
/// Never touches the network.
public struct GetCachedParams: Codable, Sendable, Equatable {
    public static let method = "getCached"

    public var url: String

    public init(url: String) {
        self.url = url
    }
}
