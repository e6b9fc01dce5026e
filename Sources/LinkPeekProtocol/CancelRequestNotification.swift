/// `$/cancelRequest` (notification): the LSP way to cancel a request by its
/// request id. An unknown or already answered id is ignored quietly.
public struct CancelRequestParams: Codable, Sendable, Equatable {
    public static let method = "$/cancelRequest"

    public var id: IntegerOrString

    public init(id: IntegerOrString) {
        self.id = id
    }
}
