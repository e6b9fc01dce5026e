import ArgumentParser
import FoundationEssentials
import JSON
import LinkPeek
import LinkPeekProtocol

#if canImport(Glibc)
import Glibc
#endif

/// `linkpeek cache`: look at and tidy the preview cache on disk.
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "The preview cache on disk: stats, get, clear, prune.",
        subcommands: [Stats.self, Get.self, Clear.self, Prune.self])

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Where the cache is, how many entries and bytes, the oldest and newest entry.")

        @OptionGroup var cacheOptions: CacheOptions
        @OptionGroup var config: ConfigOptions

        @Flag(name: .long, help: "JSON (the default when stdout is not a terminal).")
        var json = false

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            try logging.bootstrap()
            let stats = try config.store(cache: cacheOptions).stats()
            if json || isatty(STDOUT_FILENO) != 1 {
                StandardIO.write(try CommandOutput.json(stats) + "\n", to: STDOUT_FILENO)
                return
            }
            let mebibytes = { (bytes: Int) in String(Double(bytes * 10 / 1_048_576) / 10) + " MiB" }
            let lines = [
                "location: \(stats.location)",
                "entries:  \(stats.entries) previews, \(stats.failures) failures, \(stats.saved) saved, \(stats.blobs) blobs",
                "size:     \(mebibytes(stats.fileBytes)) on disk, \(mebibytes(stats.usedBytes)) in use, limit \(mebibytes(stats.sizeLimit))",
                "oldest:   \(stats.oldest ?? "-")",
                "newest:   \(stats.newest ?? "-")",
                "hit rate: \(CacheCommand.hitRate(stats.daemons ?? []))",
            ]
            StandardIO.write(lines.joined(separator: "\n") + "\n", to: STDOUT_FILENO)
        }
    }

    /// The running daemons' hit rate since each started, or why there is none.
    static func hitRate(_ daemons: [DaemonUsage]) -> String {
        let hits = daemons.reduce(0) { $0 + $1.hits }
        let total = daemons.reduce(0) { $0 + $1.hits + $1.misses }
        guard total > 0 else { return "- (no running daemon has reported yet)" }
        let percent = Double(hits * 1000 / total) / 10
        return "\(percent)% (\(hits) of \(total) requests, \(daemons.count) running daemon\(daemons.count == 1 ? "" : "s"))"
    }

    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "get",
            abstract: "What the cache holds for a URL, fresh or stale, without the network (exit 1 when nothing).")

        @Argument(help: "The URL.")
        var url: String

        @Option(name: .long, help: ArgumentHelp("The Accept-Language it was fetched with.", valueName: "languages"))
        var acceptLanguage: String?

        @OptionGroup var cacheOptions: CacheOptions
        @OptionGroup var config: ConfigOptions

        func validate() throws {
            if let problem = ParamRanges.checkURL(url, field: "URL") { throw ValidationError(problem + ".") }
        }

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            try logging.bootstrap()
            let settings = try config.settings(cache: cacheOptions)
            let engine = LinkPeekEngine(settings: settings)
            defer { engine.shutdown() }
            switch await engine.cachedOutcome(url: url, acceptLanguage: acceptLanguage) {
            case .preview(let json)?:
                StandardIO.write(String(decoding: json, as: UTF8.self) + "\n", to: STDOUT_FILENO)
            case .failure(let error)?:
                ResultPrinter(pretty: false).emit(.failure(error), url: url)
            case nil:
                StandardIO.writeError("linkpeek: nothing cached for \(url)\n")
                throw ExitCode(1)
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear",
            abstract: "Forget every cached preview and failure (saved links stay).")

        @OptionGroup var cacheOptions: CacheOptions
        @OptionGroup var config: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            try logging.bootstrap()
            let removed = try await config.store(cache: cacheOptions).clear()
            StandardIO.write("removed \(removed) entries\n", to: STDOUT_FILENO)
        }
    }

    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Remove expired blobs and the least recently used entries until the cache is under 80% of its limit.")

        @OptionGroup var cacheOptions: CacheOptions
        @OptionGroup var config: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            try logging.bootstrap()
            let removed = try await config.store(cache: cacheOptions).prune()
            StandardIO.write("removed \(removed) entries\n", to: STDOUT_FILENO)
        }
    }
}

/// JSON for the commands' output other than results (keys sorted, slashes plain).
enum CommandOutput {
    /// `value` as JSON. A value that cannot be encoded (not expected: these
    /// are strings and numbers) ends the command with status 1, and stderr
    /// says why, rather than printing something else in its place.
    static func json(_ value: some Encodable, pretty: Bool = false) throws -> String {
        do {
            return String(decoding: try WireJSON.bytes(of: value, pretty: pretty), as: UTF8.self)
        } catch {
            StandardIO.writeError("linkpeek: cannot write the output as JSON: \(error)\n")
            throw ExitCode(1)
        }
    }
}
