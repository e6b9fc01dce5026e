/// `initialized` (notification): the client has read the `initialize`
/// result. Accepted and ignored.
public enum InitializedNotification {
    public static let method = "initialized"
}

/// `shutdown` (request, no params; any given are ignored) → `null`.
/// Afterwards every request is refused with "server is shutting down";
/// running fetches still finish.
public struct ShutdownParams: Codable, Sendable, Equatable {
    public static let method = "shutdown"

    public init() {}
}

/// `exit` (notification): the daemon cancels what still runs, flushes and
/// exits, with status 0 after `shutdown` and 1 otherwise.
public enum ExitNotification {
    public static let method = "exit"
}
