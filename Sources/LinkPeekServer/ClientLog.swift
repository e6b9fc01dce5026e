import JSONRPC
import LinkPeekProtocol
import Logging
import Synchronization

/// Sends log records at `level` and above to the daemon's client as
/// `window/logMessage`, so that they appear in the editor's LSP log (stdout
/// carries only protocol messages: a record never goes there as text).
///
/// The executable puts `handler(label:)` into the logging system it
/// bootstraps; `Server.serve` attaches its connection for the session and
/// detaches it before the output is closed. Records logged while no
/// connection is attached are not forwarded.
public final class ClientLog: Sendable {
    /// The least severe level forwarded (never below `warning`).
    public let level: Logger.Level
    private let connection = Mutex<Connection?>(nil)

    public init(level: Logger.Level = .warning) {
        self.level = max(level, .warning)
    }

    /// A handler for the logging system's factory.
    public func handler(label: String) -> some LogHandler {
        Handler(label: label, log: self, logLevel: level)
    }

    func attach(_ connection: Connection) { self.connection.withLock { $0 = connection } }
    func detach() { connection.withLock { $0 = nil } }

    /// LSP `MessageType`: 1 error, 2 warning (and 3 info, 4 log below them).
    static func messageType(_ level: Logger.Level) -> Int {
        switch level {
        case .critical, .error: 1
        case .warning: 2
        case .notice, .info: 3
        case .debug, .trace: 4
        }
    }

    func forward(_ level: Logger.Level, label: String, message: String) {
        guard level >= self.level, let connection = connection.withLock({ $0 }) else { return }
        let text = "\(label): \(message)"
        let params: JSONValue = .object(["type": .int(Self.messageType(level)), "message": .string(text)])
        // Droppable: a flood of warnings must not grow the queue of a client that reads slowly.
        connection.send(.notification(method: LogMessageParams.method, params: params), priority: .droppable)
    }

    struct Handler: LogHandler {
        let label: String
        let log: ClientLog
        var logLevel: Logger.Level
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.forward(event.level, label: label, message: LogLine.message(event, metadata: metadata))
        }
    }
}
