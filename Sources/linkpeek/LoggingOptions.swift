import ArgumentParser
import LinkPeekServer
import Logging

#if canImport(Glibc)
import Glibc
#endif

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// `--log-level` and `--log-file`, on every subcommand that does work. The
/// executable is the one place that picks the logging handler; the libraries
/// only log.
struct LoggingOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Log on stderr (or --log-file) from this level up.",
        valueName: "level"))
    var logLevel: Logger.Level = .warning

    @Option(name: .long, help: ArgumentHelp(
        "Append the log to FILE instead of stderr (for daemons).", valueName: "file"))
    var logFile: String?

    /// Opens the log file (a usage error naming the flag when it cannot be
    /// opened) and bootstraps the logging system once; `clientLog` also
    /// gets every record (it forwards warnings to the daemon's client).
    func bootstrap(clientLog: ClientLog? = nil) throws {
        var descriptor = STDERR_FILENO
        if let logFile {
            descriptor = open(logFile, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw ValidationError("--log-file: cannot open \(logFile): \(String(cString: strerror(errno))).")
            }
        }
        let level = logLevel
        let output = descriptor
        LoggingSystem.bootstrap { label in
            let line = LineLogHandler(label: label, descriptor: output, logLevel: level)
            guard let clientLog else { return line }
            return MultiplexLogHandler([line, clientLog.handler(label: label)])
        }
    }
}

/// One line per record on a file descriptor, each written with one `write`
/// (with `O_APPEND`, lines from threads and processes do not mix).
struct LineLogHandler: LogHandler {
    let label: String
    let descriptor: Int32
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        StandardIO.write(LogLine.line(event, label: label, metadata: metadata), to: descriptor)
    }
}
