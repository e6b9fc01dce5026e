import Foundation
import LinkPeek
import Synchronization

/// A `MetadataService` whose behaviour the URL picks, so tests read plainly:
/// - `https://fast/…`: returns at once;
/// - `https://delay/<ms>`: returns after that many milliseconds;
/// - `https://slow/…`: runs until cancelled, then throws `cancelled`;
/// - `https://stubborn/…`: ignores cancellation, returns after 300 ms;
/// - `https://gated/…`: returns once the test calls `openGate()` (or is cancelled):
///   an order the test sets, where a delay would race a loaded machine;
/// - `https://latch/…`: like `gated`, but ignores cancellation (a stubborn fetch the test releases);
/// - `https://events/…`: a burst of progress, a partial, more progress, a result;
/// - `https://fail/…`: HTTP 404 failure; `https://timeout/…`: times out;
/// - any URL with `cachePolicy: cacheOnly`: the cache, else a `notCached` failure.
///
/// With `remembers`, what a fetch returns is cached, as the engine does.
public final class FakeService: MetadataService {
    let fetches = Mutex(0)
    let cache: [String: LinkMetadata]
    let remembers: Bool
    let remembered = Mutex<[String: LinkMetadata]>([:])

    public init(cache: [String: LinkMetadata] = [:], remembers: Bool = false) {
        self.cache = cache
        self.remembers = remembers
    }

    public var fetchCount: Int { fetches.withLock { $0 } }

    let returns = Mutex(0)
    /// How many fetches have returned or thrown: a test can wait for a
    /// fetch to be over instead of sleeping past it.
    public var returnedCount: Int { returns.withLock { $0 } }

    /// Waits, bounded by `timeout` seconds, until `condition` holds of the
    /// counters (`fetchCount`, `returnedCount`): a state to wait on instead
    /// of a sleep.
    public func wait(
        until condition: @escaping (FakeService) -> Bool, _ what: String, timeout: Double = 30
    ) async throws {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while !condition(self) {
            guard ContinuousClock.now < deadline else {
                throw TimeoutError(description: "not within \(timeout) s: \(what) (fetches \(fetchCount), returned \(returnedCount))")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    let gate = Mutex(false)
    /// Lets every `https://gated/…` fetch, running or to come, return.
    public func openGate() { gate.withLock { $0 = true } }

    let flushes = Mutex(0)
    /// How often the session asked the service to write what it holds back (`flush`).
    public var flushCount: Int { flushes.withLock { $0 } }

    public func flush() { flushes.withLock { $0 += 1 } }

    let shutdowns = Mutex(0)
    /// How often the session ended the service (`shutdown`), which flushes too.
    public var shutdownCount: Int { shutdowns.withLock { $0 } }

    public func shutdown() {
        shutdowns.withLock { $0 += 1 }
        flush()
    }

    public func fetch(
        url: String, options: FetchOptions, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> LinkMetadata {
        fetches.withLock { $0 += 1 }
        defer { returns.withLock { $0 += 1 } }
        if options.cachePolicy == .cacheOnly {
            guard let cached = cache[url] else { throw .failed(.notCached, "the URL is not in the cache.") }
            return cached
        }
        var metadata = LinkMetadata(originalURL: url)
        metadata.title = "Title of \(url)"
        let host = URLComponents(string: url)?.host ?? ""
        switch host {
        case "delay":
            let milliseconds = Int(url.split(separator: "/").last ?? "0") ?? 0
            try await sleep(milliseconds)
        case "slow":
            try await sleep(60_000)
        case "gated":
            while !gate.withLock({ $0 }) { try await sleep(1) }
        case "latch":
            while !gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
        case "stubborn":
            try? await Task.sleep(for: .milliseconds(300))
        case "events":
            events(.progress(stage: .resolving, bytes: 0))
            events(.progress(stage: .connecting, bytes: 0))
            for bytes in stride(from: 0, to: 100_000, by: 1000) {
                events(.progress(stage: .downloading, bytes: bytes))
            }
            events(.partial(metadata))
            try await sleep(120)
            events(.progress(stage: .parsing, bytes: 100_000))
            events(.progress(stage: .icon, bytes: 100_000))
            try await sleep(20)
            metadata.summary = "complete"
        case "fail":
            throw .failed(.httpStatus, "the server answered HTTP 404.", status: 404)
        case "timeout":
            throw .timedOut
        default:
            break
        }
        if remembers { remembered.withLock { $0[url] = metadata } }
        return metadata
    }

    public func cached(url: String) async -> LinkMetadata? {
        cache[url] ?? remembered.withLock { $0[url] }
    }

    /// A fixed thumbnail (a JPEG's first bytes) for a verified image, as the
    /// engine's image pipeline would make; none for any other.
    public func cardImage(for metadata: LinkMetadata, allowNetwork: Bool) async -> CardImage? {
        guard metadata.image?.isVerified == true else { return nil }
        return CardImage(type: "image/jpeg", bytes: [0xFF, 0xD8, 0xFF])
    }

    private func sleep(_ milliseconds: Int) async throws(FetchError) {
        do {
            try await Task.sleep(for: .milliseconds(milliseconds))
        } catch {
            throw .cancelled
        }
    }
}
