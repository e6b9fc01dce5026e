import Logging

/// The one text form of a log record, for the executable's stderr and file
/// lines and for `window/logMessage`: the message, then its metadata as
/// `key=value` in key order.
public enum LogLine {
    public static func message(_ event: LogEvent, metadata handlerMetadata: Logger.Metadata) -> String {
        var metadata = handlerMetadata
        if let own = event.metadata { metadata.merge(own) { $1 } }
        if let error = event.error { metadata["error"] = "\(error)" }
        guard !metadata.isEmpty else { return event.message.description }
        let pairs = metadata.keys.sorted().map { "\($0)=\(metadata[$0].map { "\($0)" } ?? "")" }
        return event.message.description + " " + pairs.joined(separator: " ")
    }

    /// `<label> <level>: <message>` (`linkpeek.server warning: …`), one line (newlines in the
    /// message become spaces, so one record is one line).
    public static func line(_ event: LogEvent, label: String, metadata: Logger.Metadata) -> String {
        let text = message(event, metadata: metadata).map { $0.isNewline ? " " : $0 }
        return "\(label) \(event.level): \(String(text))\n"
    }
}
