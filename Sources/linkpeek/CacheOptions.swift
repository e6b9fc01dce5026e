import ArgumentParser
import LinkPeek
import LinkPeekProtocol
import Options

/// The flags every command that uses the cache shares.
struct CacheOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Cache directory (default $XDG_CACHE_HOME/linkpeek, else ~/.cache/linkpeek).", valueName: "dir"))
    var cacheDir: String?

    @Flag(name: .long, help: "Keep previews and saved links in memory only.")
    var noCache = false

    @Option(name: .long, help: ArgumentHelp("Cache size limit in MiB (default 256).", valueName: "MiB"))
    var cacheSize: Double?

    @Option(name: .long, help: .hidden)
    var clockOffset: Double?

    func validate() throws {
        if let problem = ParamRanges.cacheSize.check(cacheSize, field: "--cache-size") {
            throw ValidationError(problem + ".")
        }
        if let problem = ParamRanges.clockOffset.check(clockOffset, field: "--clock-offset") {
            throw ValidationError(problem + ".")
        }
        if cacheDir == "" { throw ValidationError("--cache-dir must not be empty.") }
    }

    /// The preferences these flags give (the flag layer).
    func add(to options: inout Options) {
        options.cacheDir = cacheDir
        if noCache { options.cache = false }
        options.cacheSize = cacheSize
    }

    /// `settings` with these flags applied, over what `settings` had.
    func apply(to settings: inout Settings) {
        var options = Options()
        add(to: &options)
        settings.apply(options)
        settings.clockOffset = clockOffset ?? 0
    }

    /// The store these flags name, for the commands that use it directly.
    var store: CacheStore {
        var settings = Settings()
        settings.acceptLanguage = UserLanguage.fromEnvironment()
        apply(to: &settings)
        let directory = settings.cacheEnabled ? CacheLocation.directory(configured: settings.cacheDir) : nil
        return CacheStore(directory: directory, sizeLimit: settings.cacheSizeLimit)
    }
}

extension CachePolicy: ExpressibleByArgument {}
