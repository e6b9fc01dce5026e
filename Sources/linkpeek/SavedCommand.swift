import ArgumentParser
import FoundationEssentials
import LinkPeek
import LinkPeekProtocol

#if canImport(Glibc)
import Glibc
#endif

/// `linkpeek saved`: saved links, kept in the cache database and never evicted.
struct SavedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saved",
        abstract: "Saved links: add, list, remove, export.",
        subcommands: [Add.self, List.self, Remove.self, Export.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Save links (fetching each preview that is not cached); one JSON line per link.",
            discussion: """
                A link whose page cannot be fetched is saved all the same, with its URL, --title when given, \
                and the failure ("failure": {kind, reason, message, status}).
                """)

        @Argument(help: "The URLs.")
        var urls: [String]

        @Option(name: .long, help: ArgumentHelp("A tag; repeatable.", valueName: "tag"))
        var tag: [String] = []

        @Option(name: .long, help: ArgumentHelp(
            "The links' title, used when a page gives none or cannot be fetched.", valueName: "text"))
        var title: String?

        @OptionGroup var network: NetworkOptions
        @OptionGroup var cacheOptions: CacheOptions

        @OptionGroup var config: ConfigOptions

        func validate() throws {
            guard !urls.isEmpty else { throw ValidationError("Give at least one URL.") }
            if let problem = ParamRanges.checkTags(tag, field: "--tag") { throw ValidationError(problem + ".") }
            if let problem = ParamRanges.checkSavedTitle(title, field: "--title") { throw ValidationError(problem + ".") }
        }

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            try logging.bootstrap()
            let settings = try config.settings(network: network, cache: cacheOptions)
            let engine = LinkPeekEngine(settings: settings)
            defer { engine.shutdown() }
            let printer = ResultPrinter(pretty: false)
            var failures = 0
            for url in urls {
                let outcome = await Self.saveOne(url, tags: tag.isEmpty ? nil : tag, title: title, engine: engine)
                if case .failure = outcome { failures += 1 }
                printer.emit(outcome, url: url)
            }
            if failures > 0 { throw ExitCode(1) }
        }

        static func saveOne(_ url: String, tags: [String]?, title: String?, engine: LinkPeekEngine) async
            -> Result<LinkMetadata, FetchError>
        {
            do {
                return .success(try await engine.save(url: url, tags: tags, title: title))
            } catch {
                return .failure(error)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "The saved links, newest first.")

        @Option(name: .long, help: "Only links with this tag.")
        var tag: String?

        @Flag(name: .long, help: "One JSON object per line (the default when stdout is not a terminal).")
        var json = false

        @OptionGroup var cacheOptions: CacheOptions
        @OptionGroup var config: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            try logging.bootstrap()
            let links = try await config.store(cache: cacheOptions).savedLinks(tag: tag)
            if json || isatty(STDOUT_FILENO) != 1 {
                let text = try links.map { try CommandOutput.json($0) + "\n" }.joined()
                StandardIO.write(text, to: STDOUT_FILENO)
                return
            }
            for link in links {
                let tags = (link.tags ?? []).isEmpty ? "" : "  [" + (link.tags ?? []).joined(separator: ", ") + "]"
                StandardIO.write("\(link.savedAt ?? "")  \(link.title ?? "-")  \(link.originalURL)\(tags)\n",
                                 to: STDOUT_FILENO)
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract: "Forget saved links (exit 1 when one was not saved).")

        @Argument(help: "The URLs.")
        var urls: [String]

        @OptionGroup var cacheOptions: CacheOptions
        @OptionGroup var config: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            try logging.bootstrap()
            let store = try config.store(cache: cacheOptions)
            var missing = 0
            for url in urls {
                guard let key = CacheKey(rawURL: url), await store.unsave(url: key.url) == true else {
                    StandardIO.writeError("linkpeek: \(url) is not saved\n")
                    missing += 1
                    continue
                }
            }
            if missing > 0 { throw ExitCode(1) }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write every saved link: a Netscape bookmark file (html) or JSON lines (jsonl).")

        enum Format: String, ExpressibleByArgument, CaseIterable {
            case html, jsonl
        }

        @Option(name: .long, help: "html or jsonl.")
        var format: Format = .html

        @OptionGroup var cacheOptions: CacheOptions
        @OptionGroup var config: ConfigOptions

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            try logging.bootstrap()
            let links = try await config.store(cache: cacheOptions).savedLinks()
            switch format {
            case .html: StandardIO.write(BookmarkFile.html(links), to: STDOUT_FILENO)
            case .jsonl: StandardIO.write(try links.map { try CommandOutput.json($0) + "\n" }.joined(), to: STDOUT_FILENO)
            }
        }
    }
}
