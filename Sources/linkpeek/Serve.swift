import ArgumentParser
import FoundationEssentials
import LinkPeek
import LinkPeekProtocol
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
            Requests: initialize, shutdown, exit, fetch, cancel, $/cancelRequest, getCached, save, unsave, saved, render, getMedia, prefetch.

            It is also a language server for URLs: textDocument/didOpen, didChange (incremental), didClose, textDocument/hover (a Markdown preview card of the URL under the cursor), textDocument/documentLink and documentLink/resolve; window/workDoneProgress/cancel. initializationOptions hoverTimeout (seconds, default 1.5), prefetch and hoverImages tune the hover.

            With --fleet (or initializationOptions.fleet), daemons on many hosts share a Redis cache level, one origin fetch per URL and one rate per host (--fleet-origin-rate); Redis failing never fails a request. `linkpeek fleet stats` shows the fleet's use.

            The flags set defaults; initializationOptions in `initialize` override them. Logs go to stderr only. See protocol/README.md for the full contract.
            """)

    @OptionGroup var network: NetworkOptions

    @Option(name: .long, help: "Fetches running at once, in all.")
    var maxConcurrency: Int = 64

    @OptionGroup var cacheOptions: CacheOptions

    @OptionGroup var fleetOptions: FleetOptions

    @Option(name: .long, help: "Log level on stderr: \(LogLevel.allCases.map(\.rawValue).joined(separator: ", ")).")
    var logLevel: LogLevel = .warning

    func validate() throws {
        if let problem = ParamRanges.maxConcurrency.check(Double(maxConcurrency), field: "--max-concurrency") {
            throw ValidationError(problem + ".")
        }
    }

    func run() async throws {
        var settings = network.settings
        settings.maxConcurrency = maxConcurrency
        cacheOptions.apply(to: &settings)
        fleetOptions.apply(to: &settings)
        settings.reportsUsage = true
        let code = await Server.serve(settings: settings, makeService: { LinkPeekEngine(settings: $0) }, logLevel: logLevel)
        Glibc.exit(code)
    }
}
