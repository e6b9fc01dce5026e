import ArgumentParser
import FoundationEssentials
import JSONRPC
import LinkPeek
import LinkPeekHTTP
import LinkPeekProtocol
import LinkPeekServer
import Logging
import Options

#if canImport(Glibc)
import Glibc
#endif

/// `linkpeek serve` (or `linkpeek --stdio`): the JSON-RPC 2.0 daemon on
/// stdin/stdout. The protocol is specified in `protocol/README.md`.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the JSON-RPC 2.0 daemon on stdin/stdout (LSP framing, or newline-delimited JSON).",
        discussion: """
            Requests: initialize, shutdown, exit, fetch, cancel, $/cancelRequest, getCached, save, unsave, saved, render, getMedia, prefetch.

            It is also a language server for URLs: textDocument/didOpen, didChange (incremental), didClose, textDocument/hover (a preview card of the URL under the cursor: Markdown, or plain text when the client's textDocument.hover.contentFormat puts plaintext first), textDocument/documentLink and documentLink/resolve; window/workDoneProgress/cancel. initializationOptions hoverTimeout (seconds, default 1.5), prefetch and hoverImages (a data: thumbnail in Markdown cards, never the image's URL) tune the hover; acceptLanguage sets the Accept-Language of requests that name none (default: --accept-language, else the locale).

            A host that answers 429 or 503 with Retry-After is left alone for that long (at most 10 minutes): its fetches fail at once with reason rateLimited and data.retryAfter, except cachePolicy reload. prefetch sends at most 2 requests at once to one host.

            With --fleet (or initializationOptions.fleet), daemons on many hosts share a Redis cache level, one origin fetch per URL and one rate per host (--fleet-origin-rate); Redis failing never fails a request. `linkpeek fleet stats` shows the fleet's use.

            With --http ADDRESS:PORT (or --http-from-config: [http] listen in the configuration file) it serves HTTP instead of stdio: /v1/preview, /v1/oembed, /v1/image, /healthz, /readyz and /metrics, with the same engine, cache and fleet (protocol/http.md). Its flags are also [http] keys; SIGHUP applies the file again, except a new listen address (that needs a restart).

            initializationOptions in `initialize` (and workspace/didChangeConfiguration, from the next request on) override the environment and the configuration file; a flag beats them. SIGHUP reads the configuration file again. Logs go to stderr (or --log-file) only; warnings and errors also go to the client as window/logMessage. See protocol/README.md for the full contract.
            """)

    @OptionGroup var network: NetworkOptions

    @Option(name: .long, help: "Fetches running at once, in all (default 64).")
    var maxConcurrency: Int?

    @OptionGroup var cacheOptions: CacheOptions

    @Option(name: .long, help: ArgumentHelp(
        "The Accept-Language header for requests that name none (default: the locale from LC_ALL, else LC_MESSAGES, else LANG; \"\" for none).",
        valueName: "languages"))
    var acceptLanguage: String?
    @OptionGroup var fleetOptions: FleetOptions

    @OptionGroup var config: ConfigOptions

    @OptionGroup var logging: LoggingOptions

    @OptionGroup(title: "HTTP service") var httpOptions: HTTPServeOptions

    @Flag(name: .customLong("no-hover-images"), help: ArgumentHelp(
        "Hover cards without the image's thumbnail (hoverImages false, whatever the client sends), for clients that show Markdown as text."))
    var noHoverImages = false

    /// Test seams: the output queue's soft and hard limits in bytes (protocol §7), so a test reaches them
    /// without queueing 256 MiB.
    @Option(name: .long, help: .hidden)
    var outputSoftLimit: Int?
    @Option(name: .long, help: .hidden)
    var outputHardLimit: Int?

    var outputLimits: OutputLimits {
        let defaults = OutputLimits()
        return OutputLimits(softLimit: outputSoftLimit ?? defaults.softLimit, hardLimit: outputHardLimit ?? defaults.hardLimit)
    }

    func validate() throws {
        if httpOptions.servesHTTP, noHoverImages {
            throw ValidationError("--no-hover-images is for the stdio daemon's hover cards, not --http.")
        }
        if let problem = ParamRanges.maxConcurrency.check(maxConcurrency.map(Double.init), field: "--max-concurrency") {
            throw ValidationError(problem + ".")
        }
        if let problem = ParamRanges.checkHeaderValue(acceptLanguage, field: "--accept-language") {
            throw ValidationError(problem + ".")
        }
        let defaults = OutputLimits()
        for (value, field, most) in [(outputSoftLimit, "--output-soft-limit", defaults.softLimit),
                                     (outputHardLimit, "--output-hard-limit", defaults.hardLimit)] {
            if let value, !(4096...most).contains(value) {
                throw ValidationError("\(field) must be an integer from 4096 to \(most).")
            }
        }
        if outputLimits.softLimit > outputLimits.hardLimit {
            throw ValidationError("--output-soft-limit must not be more than --output-hard-limit.")
        }
    }

    func run() async throws {
        let clientLog = ClientLog(level: logging.logLevel)
        try logging.bootstrap(clientLog: clientLog)
        var flags = network.options
        cacheOptions.add(to: &flags)
        fleetOptions.add(to: &flags)
        flags.maxConcurrency = maxConcurrency.map(Double.init)
        flags.acceptLanguage = acceptLanguage
        if noHoverImages { flags.hoverImages = false }
        httpOptions.add(to: &flags)
        // A daemon runs with what is good in the file, and says what is not
        // (logged here, shown to the client once as window/showMessage);
        // SIGHUP reads it again.
        let start = loadConfiguration(flags: flags)
        if httpOptions.servesHTTP {
            let code = try await serveHTTP(start: start, flags: flags)
            Glibc.exit(code)
        }
        let replaced = ReplacedEngines()
        let code = await Server.serve(
            configuration: start, reloadConfiguration: { [flags] in loadConfiguration(flags: flags) },
            makeService: { replaced.engine(settings: $0, succeeding: $1) }, clientLog: clientLog, outputLimits: outputLimits)
        // The current engine is shut down; the replaced ones still held are too, before `exit`.
        let joined = replaced.shutdownAll()
        if joined.inAll > 0 {
            Logger(label: "linkpeek.server").info(
                "shut down \(joined.now) replaced engine\(joined.now == 1 ? "" : "s") at exit, \(joined.inAll) in all")
        }
        Glibc.exit(code)
    }

    /// `serve --http` (or `--http-from-config`): the HTTP front with the
    /// `[http]` settings the flags, environment and file give; a problem
    /// with them is a usage error (exit 2). `SIGHUP` reads them again.
    private func serveHTTP(start: ConfigurationLoad, flags: Options) async throws -> Int32 {
        let logger = Logger(label: "linkpeek.http")
        for notice in start.notices { logger.warning("\(notice)") }
        switch HTTPSettings.resolve(start.layers.merged) {
        case .failure(let problem):
            ConfigOptions.say("linkpeek: \(problem.message).")
            throw ExitCode(2)
        case .success(let http):
            return await HTTPService.run(
                settings: http, engine: LinkPeekEngine(settings: start.settings),
                reload: { [flags] in
                    let load = loadConfiguration(flags: flags)
                    return HTTPReload(
                        engineSettings: load.settings, http: HTTPSettings.resolve(load.layers.merged), notices: load.notices)
                },
                makeEngine: { LinkPeekEngine(settings: $0, succeeding: $1) }, logger: logger)
        }
    }

    /// The flag, environment and configuration file layers, what the
    /// settings start from besides them, and the problems found.
    private func loadConfiguration(flags: Options) -> ConfigurationLoad {
        let loaded = config.load(flags: flags)
        var base = Settings()
        base.acceptLanguage = UserLanguage.fromEnvironment()
        network.applyModes(to: &base)
        base.clockOffset = cacheOptions.clockOffset ?? 0
        base.reportsUsage = true
        return ConfigurationLoad(base: base, layers: loaded.layers, notices: loaded.file.warnings + loaded.problems)
    }
}
