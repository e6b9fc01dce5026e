/// `workspace/didChangeConfiguration` (notification): new settings for the
/// session, the same keys as `initializationOptions`. The keys given
/// override what is in effect from the next request on; running requests
/// keep the settings they started with.
public struct DidChangeConfigurationParams: Codable, Sendable, Equatable {
    public static let method = "workspace/didChangeConfiguration"

    public var settings: InitializationOptions?

    public init(settings: InitializationOptions? = nil) {
        self.settings = settings
    }

    public func validationError() -> String? {
        settings?.validationError()
    }
}
