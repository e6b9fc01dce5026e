import ArgumentParser
import FoundationEssentials
import Curl
import LinkPeek

#if canImport(Glibc)
import Glibc
#endif

/// `linkpeek fetch`: previews for URLs given as arguments or on stdin.
struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch link previews: one JSON object per URL per line, in input order.",
        discussion: """
            A failure is an object {"originalURL": …, "error": {"kind", "reason", "message", "status"?}}.
            Exit status: 0 when every URL gave a preview, 1 when any failed, 2 on usage errors.
            """)

    @Argument(help: "The URLs to preview.")
    var urls: [String] = []

    @Flag(name: .long, help: "Read URLs from stdin, one per line (after any given as arguments).")
    var stdin = false

    @Flag(name: .long, help: "Pretty-print the JSON.")
    var pretty = false

    @Option(name: .long, help: "Seconds before a fetch fails with timedOut.")
    var timeout: Double = 30

    @Flag(name: .long, help: "Allow loopback, private, link-local and similar addresses.")
    var allowPrivateNetwork = false

    @Option(name: .customLong("allow-network"), help: ArgumentHelp(
        "Allow this non-public network all the same (CIDR, e.g. 10.1.2.3/32); repeatable.", valueName: "cidr"))
    var allowedNetworks: [String] = []

    @Flag(name: .long, help: "Do not fetch the icon and image.")
    var noSubresources = false

    @Flag(name: .long, help: "Include the icon's and image's bytes (base64).")
    var includeData = false

    @Option(name: .long, help: "Fetches running at once.")
    var concurrency: Int = 16

    @Option(name: .long, help: "The User-Agent header.")
    var userAgent: String = Settings.defaultUserAgent

    func validate() throws {
        for network in allowedNetworks where IPNetwork(network) == nil {
            throw ValidationError("--allow-network \(network) is not an address or CIDR range.")
        }
        guard !urls.isEmpty || stdin else { throw ValidationError("Give at least one URL, or --stdin.") }
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be between 0 and 3600 seconds.") }
        guard (1...1024).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 1024.") }
        guard !userAgent.contains(where: \.isNewline) else { throw ValidationError("--user-agent must be one line.") }
    }

    func run() async throws {
        var settings = Settings()
        settings.allowPrivateNetwork = allowPrivateNetwork
        settings.allowedNetworks = allowedNetworks
        settings.timeout = timeout
        settings.userAgent = userAgent
        settings.maxConcurrency = max(concurrency, 1)
        let engine = LinkPeekEngine(settings: settings)
        let options = FetchOptions(
            timeout: timeout, fetchSubresources: !noSubresources, includeData: includeData,
            reportsPartialResults: false)
        let source = URLSource(arguments: urls, readStdin: stdin)
        let progress = ProgressLine(enabled: isatty(STDERR_FILENO) == 1 && (stdin || urls.count > 1))
        let failures = await FetchRunner(engine: engine, options: options, concurrency: concurrency)
            .run(source: source, printer: ResultPrinter(pretty: pretty), progress: progress)
        progress.clear()
        engine.shutdown()
        if failures > 0 { throw ExitCode(1) }
    }
}
