import ArgumentParser
import FoundationEssentials
import LinkPeek
import Options

#if canImport(Glibc)
import Glibc
#endif

/// `--config FILE`, and the layers of preferences a command runs with:
/// its flags over the environment (`LINKPEEK_*`) over the configuration
/// file over the defaults.
struct ConfigOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp(
        "The configuration file (default: $LINKPEEK_CONFIG, else $XDG_CONFIG_HOME/linkpeek/config.toml, else ~/.config/linkpeek/config.toml).",
        valueName: "file"))
    var path: String?

    /// What a command's preferences come from, and every sentence about them.
    struct Loaded {
        var layers = OptionLayers()
        var file: ConfigFile
        /// Problems of the file and of `LINKPEEK_*` variables, one sentence each.
        var problems: [String]
    }

    func load(flags: Options, environment: [String: String] = ProcessInfo.processInfo.environment) -> Loaded {
        let file = ConfigFile.load(named: path, environment: environment, cache: Self.cache(environment))
        let fromEnvironment = Options.fromEnvironment(environment)
        var loaded = Loaded(file: file, problems: file.problems.map(\.description) + fromEnvironment.problems)
        loaded.layers.set(flags, from: .flag)
        loaded.layers.set(fromEnvironment.options, from: .environment)
        if file.exists { loaded.layers.set(file.options, from: .file(file.path)) }
        return loaded
    }

    /// The settings of a one-shot command: `base` with every layer applied.
    /// A bad file or variable is said on stderr and the command exits with
    /// status 2 (a daemon instead runs with the rest: `Serve`).
    func settings(flags: Options, base: Settings) throws -> Settings {
        let loaded = load(flags: flags)
        for warning in loaded.file.warnings { Self.say("linkpeek: warning: \(warning)") }
        if !loaded.problems.isEmpty {
            for problem in loaded.problems { Self.say("linkpeek: \(problem)") }
            throw ExitCode(2)
        }
        var settings = base
        settings.apply(loaded.layers.merged)
        return settings
    }

    /// The settings of a command with the network and cache flags: the
    /// user's language and the run's modes as the base, then the layers.
    func settings(network: NetworkOptions, cache: CacheOptions, fleet: FleetOptions? = nil) throws -> Settings {
        var flags = network.options
        cache.add(to: &flags)
        fleet?.add(to: &flags)
        var base = Settings()
        // The user's language is part of every cache key: each command that
        // reads or fills the cache asks in it (a flag or the file may override).
        base.acceptLanguage = UserLanguage.fromEnvironment()
        network.applyModes(to: &base)
        base.clockOffset = cache.clockOffset ?? 0
        return try settings(flags: flags, base: base)
    }

    /// The settings of a command that reads or tidies the cache (`cache`,
    /// `saved list`): its cache flags over the environment over the file,
    /// so `cacheDir`, `cache` and `cacheSize` come from the file too.
    func settings(cache: CacheOptions) throws -> Settings {
        var flags = Options()
        cache.add(to: &flags)
        var base = Settings()
        base.acceptLanguage = UserLanguage.fromEnvironment()
        base.clockOffset = cache.clockOffset ?? 0
        return try settings(flags: flags, base: base)
    }

    /// The cache store those settings name.
    func store(cache: CacheOptions) throws -> CacheStore {
        let settings = try settings(cache: cache)
        let directory = settings.cacheEnabled ? CacheLocation.directory(configured: settings.cacheDir) : nil
        return CacheStore(directory: directory, sizeLimit: settings.cacheSizeLimit)
    }

    /// Where the configuration file's parsed document is kept between starts
    /// (`ConfigCache`), valid for this binary's version only.
    static func cache(_ environment: [String: String]) -> ConfigCache {
        .standard(environment, binaryVersion: Linkpeek.versionLine)
    }

    static func say(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
