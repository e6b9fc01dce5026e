import ArgumentParser
import FoundationEssentials
import Curl
import LinkPeek
import LinkPeekServer

#if canImport(Glibc)
import Glibc
#endif

extension LogLevel: ExpressibleByArgument {}

/// `linkpeek serve` (or `linkpeek --stdio`): the JSON-RPC 2.0 daemon on
/// stdin/stdout. The protocol is specified in `protocol/README.md`.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the JSON-RPC 2.0 daemon on stdin/stdout (LSP framing, or newline-delimited JSON).",
        discussion: """
            Requests: initialize, shutdown, exit, fetch, cancel, $/cancelRequest, getCached.
            The flags set defaults; initializationOptions in `initialize` override them.
            Logs go to stderr only. See protocol/README.md for the full contract.
            """)

    @Flag(name: .long, help: "Allow loopback, private, link-local and similar addresses.")
    var allowPrivateNetwork = false

    @Option(name: .customLong("allow-network"), help: ArgumentHelp(
        "Allow this non-public network all the same (CIDR, e.g. 10.1.2.3/32); repeatable.", valueName: "cidr"))
    var allowedNetworks: [String] = []

    @Option(name: .long, help: "Default seconds before a fetch fails with timedOut.")
    var timeout: Double = 30

    @Option(name: .long, help: "The User-Agent header.")
    var userAgent: String = Settings.defaultUserAgent

    @Option(name: .long, help: "Fetches running at once, in all.")
    var maxConcurrency: Int = 64

    @Option(name: .long, help: "Cache directory (the in-memory cache ignores it for now).")
    var cacheDir: String?

    @Option(name: .long, help: "Log level on stderr: \(LogLevel.allCases.map(\.rawValue).joined(separator: ", ")).")
    var logLevel: LogLevel = .warning

    func validate() throws {
        for network in allowedNetworks where IPNetwork(network) == nil {
            throw ValidationError("--allow-network \(network) is not an address or CIDR range.")
        }
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be between 0 and 3600 seconds.") }
        guard (1...1024).contains(maxConcurrency) else { throw ValidationError("--max-concurrency must be 1 to 1024.") }
        guard !userAgent.contains(where: \.isNewline) else { throw ValidationError("--user-agent must be one line.") }
    }

    func run() async throws {
        var settings = Settings()
        settings.allowPrivateNetwork = allowPrivateNetwork
        settings.allowedNetworks = allowedNetworks
        settings.timeout = timeout
        settings.userAgent = userAgent
        settings.maxConcurrency = maxConcurrency
        settings.cacheDir = cacheDir
        let code = await Server.serve(settings: settings, makeService: { LinkPeekEngine(settings: $0) }, logLevel: logLevel)
        Glibc.exit(code)
    }
}
