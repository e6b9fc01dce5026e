import Curl
import FoundationEssentials

/// The engine's side of fleet mode (`FleetCache`): one origin fetch per URL
/// across the fleet, and one request rate per host.
extension LinkPeekEngine {
    /// The shared work of a flight with the fleet in front of it: this
    /// process fetches only while it holds the key's lock; otherwise it
    /// waits (on pub/sub, within the request's timeout) for the holder's
    /// result and answers with it. A holder that vanished leaves a lock that
    /// expires, and a waiter then takes over. Redis not answering means: go
    /// on alone, as without `--fleet`.
    func loadOnce(
        url: String, key: CacheKey, options: FetchOptions, revalidating stale: CacheEntry?, timeout: Double,
        flight: FlightContext
    ) async -> Result<LoadedPreview, FetchError> {
        guard let fleet = cache.fleet else {
            return await load(url: url, key: key, options: options, revalidating: stale, timeout: timeout, flight: flight)
        }
        let name = key.description
        // Safe: `timeout` is clamped to (0, 3600].
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        let owner = fleet.newOwner()
        var uncertain = false
        // `reload` takes no entry that was there before it asked, only one another daemon fetched while it waited.
        var acceptsShared = options.cachePolicy != .reload
        while true {
            if Task.isCancelled { return .failure(.cancelled) }
            let generation = fleet.waiters.generation
            let acquisition = fleet.acquire(name, owner: owner, uncertain: uncertain)
            uncertain = acquisition == .unavailable
            switch acquisition {
            case .unavailable where fleet.isUp && Self.secondsLeft(until: deadline) > FleetCache.slowCallPause:
                // One slow call, not an outage: ask again shortly rather than fetch beside the fleet.
                try? await Task.sleep(for: .milliseconds(Int(FleetCache.slowCallPause * 1000)))
            case .unavailable:
                return await load(
                    url: url, key: key, options: options, revalidating: stale, timeout: timeout, flight: flight)
            case .acquired(let lock):
                // Another daemon may have finished between this one's miss and its lock.
                if acceptsShared, let answer = sharedAnswer(fleet, key: key, url: url) {
                    fleet.release(lock)
                    return answer
                }
                return await loadHolding(
                    lock, fleet: fleet, url: url, key: key, options: options, revalidating: stale,
                    timeout: Self.secondsLeft(until: deadline), flight: flight)
            case .heldElsewhere:
                if acceptsShared, let answer = sharedAnswer(fleet, key: key, url: url) { return answer }
                let left = Self.secondsLeft(until: deadline)
                guard left > 0 else { return .failure(.timedOut) }
                // Without the channel (Redis restarting) look again soon; with it, now and then anyway.
                let slice = fleet.waiters.isListening ? 1.0 : 0.1
                await fleet.waiters.wait(for: name, since: generation, seconds: min(left, slice))
                acceptsShared = true
                if let answer = sharedAnswer(fleet, key: key, url: url) { return answer }
            }
        }
    }

    /// Fetches while holding `lock`, renewing it, and releases it however the fetch ends
    /// (the result is in Redis first: `remember` writes through).
    private func loadHolding(
        _ lock: FleetCache.Lock, fleet: FleetCache, url: String, key: CacheKey, options: FetchOptions,
        revalidating stale: CacheEntry?, timeout: Double, flight: FlightContext
    ) async -> Result<LoadedPreview, FetchError> {
        let renewal = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Int(FleetCache.lockRenewal * 1000)))
                if Task.isCancelled || !fleet.renew(lock) { return }
            }
        }
        let outcome = await load(
            url: url, key: key, options: options, revalidating: stale, timeout: max(timeout, Self.minimumTimeout),
            flight: flight)
        renewal.cancel()
        fleet.release(lock)
        return outcome
    }

    /// A fresh result another daemon shared for `key`, as this request's answer.
    private func sharedAnswer(_ fleet: FleetCache, key: CacheKey, url: String) -> Result<LoadedPreview, FetchError>? {
        let now = now()
        guard let entry = fleet.entry(for: key.description, counted: false), entry.isFresh(at: now) else { return nil }
        cache.keepLocally(entry, key: key, url: url, now: now)
        cache.counters.hit(.fleet)
        switch entry.value {
        case .metadata(var metadata):
            metadata.fromCache = true
            return .success(LoadedPreview(metadata: metadata, stored: entry))
        case .failure(var error):
            error.fromCache = true
            return .failure(error)
        }
    }

    static func secondsLeft(until deadline: ContinuousClock.Instant) -> Double {
        let left = deadline - ContinuousClock.now
        return Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
    }
}
