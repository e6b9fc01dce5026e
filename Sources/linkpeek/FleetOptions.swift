import ArgumentParser
import LinkPeek
import Options

/// The flags of fleet mode, shared by `serve` and `fetch`.
struct FleetOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Share the cache, one fetch per URL and the rate per host with other daemons through this Redis: redis://[user:password@]host:port[/db]. Redis failing never fails a request.",
        valueName: "url"))
    var fleet: String?

    @Option(name: .long, help: ArgumentHelp(
        "With --fleet: requests per second to one host for the whole fleet, burst as many (1-10000; default 5).",
        valueName: "n"))
    var fleetOriginRate: Double?

    func validate() throws {
        if let problem = Settings.fleetProblem(fleet, field: "--fleet") { throw ValidationError(problem + ".") }
        if let problem = Settings.fleetRateProblem(fleetOriginRate, field: "--fleet-origin-rate") {
            throw ValidationError(problem + ".")
        }
        if fleetOriginRate != nil, fleet == nil { throw ValidationError("--fleet-origin-rate needs --fleet.") }
    }

    /// The preferences these flags give (the flag layer).
    func add(to options: inout Options) {
        options.fleet = fleet
        options.fleetOriginRate = fleetOriginRate
    }
}
