import Logging
import Synchronization

/// Test support: the records a logger was given, for tests that assert a
/// decision was logged (with its level, message and metadata).
public final class LogCapture: Sendable {
    public struct Record: Sendable, CustomStringConvertible {
        public var label: String
        public var level: Logger.Level
        public var message: String
        public var metadata: [String: String]

        public var description: String {
            "\(level) \(label): \(message) \(metadata.keys.sorted().map { "\($0)=\(metadata[$0] ?? "")" }.joined(separator: " "))"
        }
    }

    private let records = Mutex<[Record]>([])

    public init() {}

    /// A logger that records everything at `level` and above here.
    public func logger(label: String, level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { [self] label in Handler(label: label, capture: self) }
        logger.logLevel = level
        return logger
    }

    public var all: [Record] { records.withLock { $0 } }

    /// The messages, as text (message, then metadata).
    public var list: [String] { all.map(\.description) }

    /// Records whose message is `message`.
    public func records(_ message: String) -> [Record] { all.filter { $0.message == message } }

    struct Handler: LogHandler {
        let label: String
        let capture: LogCapture
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var merged = metadata
            if let own = event.metadata { merged.merge(own) { $1 } }
            let record = Record(
                label: label, level: event.level, message: event.message.description,
                metadata: merged.mapValues { "\($0)" })
            capture.records.withLock { $0.append(record) }
        }
    }
}
