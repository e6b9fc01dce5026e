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
        let message = message(event, metadata: metadata)
        // Most messages hold no newline: they are kept as they are, without a walk over their characters.
        let text = mayHoldNewline(message) ? String(message.map { $0.isNewline ? " " : $0 }) : message
        return "\(label) \(event.level): \(text)\n"
    }

    /// False when no character of `text` can be a newline: none of its
    /// UTF-8 bytes is LF, VT, FF or CR, or a lead byte of NEL (C2 85) or of
    /// the line and paragraph separators (E2 80 A8/A9).
    static func mayHoldNewline(_ text: String) -> Bool {
        text.utf8.contains { byte in (0x0A...0x0D).contains(byte) || byte == 0xC2 || byte == 0xE2 }
    }
}
