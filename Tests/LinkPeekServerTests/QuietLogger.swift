import Logging

/// The server's logger in tests that do not look at logs.
let quietLogger = Logger(label: "linkpeek.server") { _ in SwiftLogNoOpLogHandler() }
