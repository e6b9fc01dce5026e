import Redis

/// The checks of the fleet settings, shared by the CLI's
/// `validate()` and the daemon's `initialize`.
extension Settings {
    /// What `--fleet-origin-rate` / `initializationOptions.fleetOriginRate` may be.
    public static let fleetOriginRates = 1...10_000

    /// A sentence naming `field` when `url` is not a usable `redis://` URL.
    public static func fleetProblem(_ url: String?, field: String) -> String? {
        guard let url else { return nil }
        if case .failure(let problem) = RedisEndpoint.parse(url, field: field) { return problem.message }
        return nil
    }

    /// A sentence naming `field` when `rate` is not a whole number in `fleetOriginRates`.
    public static func fleetRateProblem(_ rate: Double?, field: String) -> String? {
        guard let rate else { return nil }
        guard let whole = Int(exactly: rate), fleetOriginRates.contains(whole) else {
            return "\(field) must be a whole number from \(fleetOriginRates.lowerBound) to \(fleetOriginRates.upperBound)"
        }
        return nil
    }
}
