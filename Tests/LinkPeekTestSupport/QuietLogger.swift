import Logging

/// The server's logger in tests that do not look at logs.
public let quietLogger = Logger(label: "linkpeek.server") { _ in SwiftLogNoOpLogHandler() }
