import InMemoryLogging
import Logging

/// Test support: the records a logger was given, for tests that assert a
/// decision was logged (with its level, message and metadata). The records
/// are kept by swift-log's own `InMemoryLogHandler`; this only hands out
/// loggers that share its store and reads its entries as plain text.
public struct LogCapture: Sendable {
    public struct Record: Sendable, CustomStringConvertible {
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]

        public var description: String {
            "\(level): \(message) \(metadata.keys.sorted().map { "\($0)=\(metadata[$0] ?? "")" }.joined(separator: " "))"
        }
    }

    /// Copies of a handler share its store.
    private let handler = InMemoryLogHandler()

    public init() {}

    /// A logger that records everything at `level` and above here.
    public func logger(label: String, level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { [handler] _ in handler }
        logger.logLevel = level
        return logger
    }

    public var all: [Record] {
        handler.entries.map { entry in
            Record(level: entry.level, message: entry.message.description, metadata: entry.metadata.mapValues { "\($0)" })
        }
    }

    /// The messages, as text (level, message, then metadata).
    public var list: [String] { all.map(\.description) }

    /// Records whose message is `message`.
    public func records(_ message: String) -> [Record] { all.filter { $0.message == message } }
}
