import ArgumentParser
import FoundationEssentials
import LinkPeek
import Redis

#if canImport(Glibc)
import Glibc
#endif

/// `linkpeek fleet`: the shared level of fleet mode, seen from outside.
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Fleet mode's shared Redis level: stats.",
        subcommands: [Stats.self])

    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "The fleet's hit rate, the locks held (fetches running) and the hosts throttled in the last minute (exit 1 when Redis does not answer).")

        @Option(name: .long, help: ArgumentHelp("The fleet's Redis: redis://[user:password@]host:port[/db].", valueName: "url"))
        var fleet: String

        @Flag(name: .long, help: "JSON (the default when stdout is not a terminal).")
        var json = false

        func validate() throws {
            if let problem = Settings.fleetProblem(fleet, field: "--fleet") { throw ValidationError(problem + ".") }
        }

        @OptionGroup var logging: LoggingOptions

        func run() async throws {
            try logging.bootstrap()
            guard case .success(let endpoint) = RedisEndpoint.parse(fleet, field: "--fleet") else { throw ExitCode(2) }
            let stats: FleetStats
            switch FleetCache(endpoint: endpoint, originRate: Settings().fleetOriginRate).stats() {
            case .failure(let error):
                StandardIO.write("linkpeek: fleet stats: \(error.message)\n", to: STDERR_FILENO)
                throw ExitCode(1)
            case .success(let read):
                stats = read
            }
            if json || isatty(STDOUT_FILENO) != 1 {
                StandardIO.write(try CommandOutput.json(stats) + "\n", to: STDOUT_FILENO)
                return
            }
            let total = stats.hits + stats.misses
            let rate = total == 0 ? "- (no lookups yet)"
                : "\(Double(stats.hits * 1000 / total) / 10)% (\(stats.hits) of \(total) lookups)"
            let hosts = stats.hostsThrottled.isEmpty ? "" : ": " + stats.hostsThrottled.joined(separator: ", ")
            let lines = [
                "redis:           \(stats.redis)",
                "hit rate:        \(rate)",
                "locks held:      \(stats.locksHeld)",
                "hosts throttled: \(stats.hostsThrottled.count) in the last \(stats.throttledWindow) s\(hosts)",
            ]
            StandardIO.write(lines.joined(separator: "\n") + "\n", to: STDOUT_FILENO)
        }
    }
}
