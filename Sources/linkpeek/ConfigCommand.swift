import ArgumentParser
import FoundationEssentials
import Options

/// `linkpeek config`: what the preferences in effect are and where each
/// comes from, a file's check, which `[[site]]` rule a URL meets, and the
/// table of keys the docs hold.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "The configuration: show, check [FILE], explain URL, keys.",
        discussion: """
            Precedence: flag > initializationOptions (or workspace/didChangeConfiguration) > environment (LINKPEEK_*) > file > default. \
            The file is TOML; protocol/config.md lists its keys and [[site]] rules. A bad file exits with status 2.
            """,
        subcommands: [Show.self, Check.self, Explain.self, Keys.self])

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Every preference in effect and where it came from.")
        @OptionGroup var config: ConfigOptions

        func run() throws {
            let loaded = config.load(flags: Options())
            print("file: \(loaded.file.path)\(loaded.file.exists ? "" : " (none)")")
            for (key, value, source) in loaded.layers.inEffect() {
                print("\(key.name) = \(value)  (\(source))")
            }
            let rules = loaded.layers.merged.siteRules ?? []
            print("site rules: \(rules.count)")
            for warning in loaded.file.warnings { ConfigOptions.say("linkpeek: warning: \(warning)") }
            for problem in loaded.problems { ConfigOptions.say("linkpeek: \(problem)") }
            if !loaded.problems.isEmpty { throw ExitCode(2) }
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a configuration file (default: the one in effect); status 2 when it has problems.")
        @Argument(help: "The file to check.") var file: String?
        @OptionGroup var config: ConfigOptions

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            let loaded = ConfigFile.load(named: file ?? config.path, environment: environment, cache: ConfigOptions.cache(environment))
            for warning in loaded.warnings { ConfigOptions.say("linkpeek: warning: \(warning)") }
            for problem in loaded.problems { ConfigOptions.say("linkpeek: \(problem)") }
            if !loaded.problems.isEmpty { throw ExitCode(2) }
            let rules = loaded.options.siteRules?.count ?? 0
            print(loaded.exists ? "\(loaded.path): ok (\(rules) site rule\(rules == 1 ? "" : "s"))" : "\(loaded.path): no file (defaults apply)")
        }
    }

    struct Explain: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "explain",
            abstract: "Which [[site]] rule applies to a URL, and what it changes.")
        @Argument(help: "An http or https URL.") var url: String
        @OptionGroup var config: ConfigOptions

        func validate() throws {
            if URLParts(url) == nil { throw ValidationError("URL must be an http or https URL with a host.") }
        }

        func run() throws {
            let loaded = config.load(flags: Options())
            for problem in loaded.problems { ConfigOptions.say("linkpeek: \(problem)") }
            let merged = loaded.layers.merged
            guard let (index, rule) = (merged.siteRules ?? []).firstMatch(url: url) else {
                print("\(url): no [[site]] rule matches; the preferences in effect apply as they are")
                return
            }
            let source = loaded.layers.sitesSource.map { "\($0)" } ?? loaded.file.path
            print("\(url): [[site]] \(index + 1) (\(source):\(rule.line)) applies")
            let changes = rule.changes
            if changes.isEmpty { print("  (it changes nothing)") }
            for change in changes { print("  \(change)") }
            if !loaded.problems.isEmpty { throw ExitCode(2) }
        }
    }

    struct Keys: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "keys",
            abstract: "The keys of the configuration file.")
        @Flag(help: "As the Markdown table the docs hold.") var markdown = false

        func run() {
            if markdown {
                print(OptionKey.markdownTable(), terminator: "")
                return
            }
            for key in OptionKey.all {
                print("\(key.name)  \(key.kind.allowed); default \(key.defaultText). \(key.summary)")
            }
        }
    }
}
