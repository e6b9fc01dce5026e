#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much the daemon logs. `--log-level` on the command line.
public enum LogLevel: String, Sendable, CaseIterable, Comparable {
    case error, warning, info, debug

    private var rank: Int {
        switch self {
        case .error: 0
        case .warning: 1
        case .info: 2
        case .debug: 3
        }
    }

    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}

/// A tiny line logger to stderr. Standard output carries protocol bytes only.
/// Each line is one `write`, so lines from different threads do not mix.
public struct Logger: Sendable {
    public var level: LogLevel

    public init(level: LogLevel) {
        self.level = level
    }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level <= self.level else { return }
        let line = Array("linkpeek [\(level.rawValue)] \(message())\n".utf8)
        line.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
