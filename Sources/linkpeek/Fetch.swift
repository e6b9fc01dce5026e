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
        commandName: "fetch",
        abstract: "Fetch link previews: one JSON object per URL per line (or a card each), in input order.",
        discussion: """
            A failure is an object {"originalURL": …, "error": {"kind", "reason", "message", "status"?, "fromCache"?, "wall"?, "retryAfter"?}}; in a card format, a card that says why. A bot check, cookie-consent or sign-in page instead of the page fails "blocked" with "wall" (challenge, consent or login) unless oEmbed stands in. A site that answers 429 or 503 with Retry-After fails "rateLimited" with "retryAfter" (seconds, at most 600).

            A page that only redirects with <meta http-equiv="refresh"> (5 s or less, no title of its own) is followed like a redirect and listed in "redirects" with "status": "refresh".
            Previews are cached on disk (shared with `linkpeek serve`); see --cache-policy and `linkpeek cache`. Many URLs at once are written to the cache together, within half a second and before exit (a run killed by a signal may lose its last half second of entries).

            --format markdown prints the editor hover card; html a self-contained <figure> card (inline CSS, no script, everything escaped); text a terminal card (bold title, dimmed host, summary wrapped to the terminal width; colours only on a terminal and without NO_COLOR). Cards are separated by a blank line.

            Exit status: 0 when every URL gave a preview, 1 when any failed, 2 on usage errors.
            """)

    @Argument(help: "The URLs to preview.")
    var urls: [String] = []

    @Flag(name: .long, help: "Read URLs from stdin, one per line (after any given as arguments).")
    var stdin = false

    @Flag(name: .long, help: "Pretty-print the JSON.")
    var pretty = false

    @Option(name: .long, help: "Output: json, markdown, html or text.")
    var format: OutputFormat = .json

    @Option(name: .long, help: "Columns for --format text (20-1000; default: the terminal's width, else $COLUMNS, else 80).")
    var width: Double?

    @OptionGroup var network: NetworkOptions

    @OptionGroup var cacheOptions: CacheOptions

    @OptionGroup var fleetOptions: FleetOptions

    @OptionGroup var config: ConfigOptions

    @Option(name: .long, help: ArgumentHelp(
        "How to use the cache: \(CachePolicy.allCases.map(\.rawValue).joined(separator: ", ")).", valueName: "policy"))
    var cachePolicy: CachePolicy = .default

    @Option(name: .long, help: ArgumentHelp(
        "The Accept-Language header, part of the cache key (default: the locale from LC_ALL, else LC_MESSAGES, else LANG, e.g. de_DE.UTF-8 → de-DE,de;q=0.9; none for C or POSIX; \"\" for none).",
        valueName: "languages"))
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
        if let problem = ParamRanges.cardWidth.check(width, field: "--width") {
            throw ValidationError(problem + ".")
        }
    }

    @OptionGroup var logging: LoggingOptions

    /// The memory cache's entries in a `fetch` (see `run`).
    static let memoryEntries = 64

    func run() async throws {
        try logging.bootstrap()
        var settings = try config.settings(network: network, cache: cacheOptions, fleet: fleetOptions)
        settings.maxConcurrency = concurrency
        // A batch answers as it goes and writes its cache entries together (`shutdown` writes the last).
        settings.cacheWritesBehind = true
        // The memory level holds only the last answers: a batch reads each URL
        // about once, and the store behind it has every entry. At its default
        // (10,000 entries, ~10 KB each) a batch's peak grew with every page.
        let engine = LinkPeekEngine(settings: settings, cache: MemoryCache(capacity: Self.memoryEntries))
        let options = FetchOptions(
            timeout: settings.timeout, cachePolicy: cachePolicy, fetchSubresources: !noSubresources,
            includeData: includeData, reportsPartialResults: false, acceptLanguage: acceptLanguage)
        let source = URLSource(arguments: urls, readStdin: stdin)
        let progress = ProgressLine(enabled: isatty(STDERR_FILENO) == 1 && (stdin || urls.count > 1))
        let failures = await FetchRunner(engine: engine, options: options, concurrency: concurrency)
            .run(source: source, printer: ResultPrinter(pretty: pretty, format: format, textStyle: textStyle()), progress: progress)
        progress.clear()
        engine.shutdown()
        if failures > 0 { throw ExitCode(1) }
    }

    /// Colours on a terminal unless `NO_COLOR` is set (https://no-color.org);
    /// the width asked for, else the terminal's.
    private func textStyle() -> TextCard.Style {
        let noColor = getenv("NO_COLOR").map { String(cString: $0).isEmpty == false } ?? false
        let columns = width.flatMap(ParamRanges.cardWidth.integer) ?? TerminalWidth.current() ?? 80
        return TextCard.Style(color: isatty(STDOUT_FILENO) == 1 && !noColor, width: columns)
    }
}

/// `--format`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case json, markdown, html, text

    /// The card format, or nil for JSON.
    var card: CardFormat? { CardFormat(rawValue: rawValue) }
}
