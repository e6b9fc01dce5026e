import Curl
import FoundationEssentials

/// The real `MetadataService`: fetches pages with the transfer engine,
/// extracts metadata, fetches the icon and image, and caches the outcome.
public final class LinkPeekEngine: MetadataService {
    public let settings: Settings
    let transfers: TransferEngine
    let cache: any MetadataCache
    let policy: AddressPolicy
    /// `settings.resolve` as curl entries (entries that do not parse were refused at the edge).
    let nameOverrides: [String]
    /// Whom TLS trusts: the settings, else `$SSL_CERT_FILE` / `$SSL_CERT_DIR`.
    let caFile: String?, caPath: String?
    /// Proxies from the settings, else the environment.
    let proxies: ProxyTable
    /// `--record` / `--replay` tapes, and the fixed `--clock` (checked at the edge).
    let recordTape: Tape?, replayTape: Tape?
    let clock: Date?
    private let coalescer = Coalescer()

    public init(settings: Settings, cache: any MetadataCache = MemoryCache()) {
        self.settings = settings
        self.cache = cache
        policy = AddressPolicy(
            allowPrivateNetwork: settings.allowPrivateNetwork,
            allowedNetworks: settings.allowedNetworks.compactMap(IPNetwork.init))
        nameOverrides = settings.resolve.compactMap { try? NameOverride.parse($0, field: "resolve").get().curlEntry }
        caFile = settings.effectiveCAFile
        caPath = settings.effectiveCAPath
        proxies = settings.proxyTable
        recordTape = settings.record.flatMap { try? Tape.forRecording(at: $0) }
        replayTape = settings.replay.flatMap { try? Tape.forReplay(at: $0) }
        clock = settings.clock.flatMap(Settings.parseClock)
        transfers = TransferEngine(
            limits: .init(total: settings.maxConcurrency, perHost: settings.perHostConcurrency))
    }

    /// Stops the transfer thread; fetches still running fail.
    public func shutdown() { transfers.shutdown() }

    public func fetch(
        url: String, options: FetchOptions, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> LinkMetadata {
        let url = try URLCheck.validate(url).get()
        if Task.isCancelled { throw .cancelled }
        if let served = try servedFromCache(url: url, policy: options.cachePolicy) { return served }

        // Clamped: the library takes any Double, and a Duration from 1e20 s traps.
        let timeout = Self.clampedTimeout(options.timeout ?? settings.timeout)
        let waiter = coalescer.makeWaiterID()
        // Each caller keeps its own deadline, even while sharing a transfer.
        let timer = Task { [coalescer] in
            // Safe: `timeout` is clamped to (0, 3600], so the product fits Int64.
            try await Task.sleep(for: .milliseconds(Int64(timeout * 1000)))
            coalescer.leave(waiter: waiter, with: .timedOut)
        }
        defer { timer.cancel() }
        // Fetches share a flight only when they want the same work done.
        let flags = [options.fetchSubresources, options.includeData, options.reportsPartialResults]
        let key = flags.map { $0 ? "1" : "0" }.joined() + " " + url
        let outcome = await coalescer.run(key: key, waiter: waiter, events: events) { events in
            await self.load(url: url, options: options, timeout: timeout, events: events)
        }
        return try outcome.get()
    }

    /// Timeouts the engine works with: NaN, negatives and zero become the
    /// shortest, anything past `maximumTimeout` the longest.
    static func clampedTimeout(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return seconds.isNaN ? minimumTimeout : maximumTimeout }
        return min(max(seconds, minimumTimeout), maximumTimeout)
    }
    static let minimumTimeout = 0.001
    static let maximumTimeout = 3600.0

    public func cached(url: String) async -> LinkMetadata? {
        guard let entry = cache.entry(for: url), case .metadata(var metadata) = entry.value else { return nil }
        metadata.fromCache = true
        return metadata
    }

    nonisolated(nonsending) public func cachedJSON(url: String) async -> [UInt8]? {
        guard let entry = cache.entry(for: url), case .metadata(var metadata) = entry.value else { return nil }
        if let json = entry.servedJSON { return json }
        metadata.fromCache = true
        return try? metadata.jsonBytes()
    }

    /// A fresh cached outcome when the policy allows one.
    private func servedFromCache(url: String, policy: CachePolicy) throws(FetchError) -> LinkMetadata? {
        switch policy {
        case .reload:
            return nil
        case .cacheOnly:
            guard let entry = cache.entry(for: url), case .metadata(var metadata) = entry.value else {
                throw .failed(.notCached, "no cached preview for this URL, and the cache policy forbids the network.")
            }
            metadata.fromCache = true
            return metadata
        case .default:
            guard let entry = cache.entry(for: url), entry.isFresh() else { return nil }
            switch entry.value {
            case .metadata(var metadata):
                metadata.fromCache = true
                return metadata
            case .failure(let error):
                throw error
            }
        }
    }

    /// Fetches, extracts and caches one URL (the shared work of a flight).
    private func load(
        url: String, options: FetchOptions, timeout: Double, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async -> Result<LinkMetadata, FetchError> {
        do throws(FetchError) {
            var (metadata, cacheControl) = try await loadPage(
                url: url, timeout: timeout, partials: options.reportsPartialResults, events: events)
            if options.fetchSubresources {
                metadata = await loadSubresources(of: metadata, options: options, events: events)
            }
            let now = Date()
            let expires = now.addingTimeInterval(CacheLifetime.seconds(cacheControl: cacheControl))
            // A fixed clock makes both stable; the cache still counts real time.
            metadata.fetchedAt = Self.iso8601(clock ?? now)
            metadata.expiresAt = Self.iso8601(clock.map { $0.addingTimeInterval(expires.timeIntervalSince(now)) } ?? expires)
            metadata.fromCache = false
            cache.store(CacheEntry(value: .metadata(metadata), expiresAt: expires), for: url)
            return .success(metadata)
        } catch {
            if error.kind == .failed {
                let expires = Date().addingTimeInterval(CacheLifetime.failure)
                cache.store(CacheEntry(value: .failure(error), expiresAt: expires), for: url)
            }
            return .failure(error)
        }
    }

    /// A GET with this engine's settings.
    func transferRequest(url: String, timeout: Double, maxBytes: Int) -> TransferRequest {
        var request = TransferRequest(
            url: url, userAgent: settings.userAgent, timeout: timeout,
            connectTimeout: min(settings.connectTimeout, timeout), maxRedirects: settings.maxRedirects,
            policy: policy, maxBytes: maxBytes)
        request.nameOverrides = nameOverrides
        request.caFile = caFile
        request.caPath = caPath
        request.proxies = proxies
        return request
    }

    static func iso8601(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
