/// `workspace/didChangeConfiguration` (notification): new settings for the
/// session in `settings`, the same keys as `initializationOptions` (read by
/// the daemon as its client layer of options). The keys given override
/// what the client sent before, from the next request on; running requests
/// keep the settings they started with.
public struct DidChangeConfigurationParams: Codable, Sendable, Equatable {
    public static let method = "workspace/didChangeConfiguration"

    public init() {}
}
