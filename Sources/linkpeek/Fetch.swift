import ArgumentParser
import FoundationEssentials
import LinkPeek
import LinkPeekProtocol

#if canImport(Glibc)
import Glibc
#endif

/// `linkpeek fetch`: previews for URLs given as arguments or on stdin.
struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Fetch link previews: one JSON object per URL per line, in input order.",
        discussion: """
            A failure is an object {"originalURL": …, "error": {"kind", "reason", "message", "status"?, "fromCache"?}}.
            Previews are cached on disk (shared with `linkpeek serve`); see --cache-policy and `linkpeek cache`.
            Exit status: 0 when every URL gave a preview, 1 when any failed, 2 on usage errors.
            """)

    @Argument(help: "The URLs to preview.")
    var urls: [String] = []

    @Flag(name: .long, help: "Read URLs from stdin, one per line (after any given as arguments).")
    var stdin = false

    @Flag(name: .long, help: "Pretty-print the JSON.")
    var pretty = false

    @OptionGroup var network: NetworkOptions

    @OptionGroup var cacheOptions: CacheOptions

    @Option(name: .long, help: ArgumentHelp(
        "How to use the cache: \(CachePolicy.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "policy"))
    var cachePolicy: CachePolicy = .default

    @Option(name: .long, help: ArgumentHelp("The Accept-Language header (part of the cache key).", valueName: "languages"))
    var acceptLanguage: String?

    @Flag(name: .long, help: "Do not fetch the icon and image.")
    var noSubresources = false

    @Flag(name: .long, help: "Include the icon's and image's bytes (base64).")
    var includeData = false

    @Option(name: .long, help: "Fetches running at once.")
    var concurrency: Int = 16

    func validate() throws {
        guard !urls.isEmpty || stdin else { throw ValidationError("Give at least one URL, or --stdin.") }
        if let problem = ParamRanges.maxConcurrency.check(Double(concurrency), field: "--concurrency") {
            throw ValidationError(problem + ".")
        }
        if let problem = ParamRanges.checkHeaderValue(acceptLanguage, field: "--accept-language") {
            throw ValidationError(problem + ".")
        }
    }

    func run() async throws {
        var settings = network.settings
        settings.maxConcurrency = concurrency
        cacheOptions.apply(to: &settings)
        let engine = LinkPeekEngine(settings: settings)
        let options = FetchOptions(
            timeout: network.timeout, cachePolicy: cachePolicy, fetchSubresources: !noSubresources,
            includeData: includeData, reportsPartialResults: false, acceptLanguage: acceptLanguage)
        let source = URLSource(arguments: urls, readStdin: stdin)
        let progress = ProgressLine(enabled: isatty(STDERR_FILENO) == 1 && (stdin || urls.count > 1))
        let failures = await FetchRunner(engine: engine, options: options, concurrency: concurrency)
            .run(source: source, printer: ResultPrinter(pretty: pretty), progress: progress)
        progress.clear()
        engine.shutdown()
        if failures > 0 { throw ExitCode(1) }
    }
}
