/// One thing wrong with a configuration file, as one sentence naming
/// `file:line`, the key and what is allowed.
public struct ConfigProblem: Sendable, Equatable, Error, CustomStringConvertible {
    public let file: String
    /// 0 when the problem is the whole file (unreadable, too large).
    public let line: Int
    public let message: String

    public var description: String {
        line > 0 ? "\(file):\(line): \(message)." : "\(file): \(message)."
    }
}
