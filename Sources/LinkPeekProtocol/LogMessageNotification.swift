/// `window/logMessage` (notification, daemon → client): a warning or an error
/// the daemon logged, so that it shows in the editor's LSP log.
public struct LogMessageParams: Codable, Sendable, Equatable {
    public static var method: String { "window/logMessage" }

    /// LSP's `MessageType`: 1 error, 2 warning, 3 info, 4 log.
    public var type: Int
    public var message: String

    public init(type: Int, message: String) {
        self.type = type
        self.message = message
    }
}
