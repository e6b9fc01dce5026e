import Curl
import FoundationEssentials
import Synchronization
import TextTrimming
import Logging
import Options

/// The real `MetadataService`: fetches pages with the transfer engine,
/// extracts metadata, fetches the icon and image, and caches the outcome
/// in two levels (memory, then SQLite: `PreviewCache`) with HTTP freshness.
public final class LinkPeekEngine: MetadataService {
    public let settings: Settings
    let transfers: TransferEngine
    public let cache: PreviewCache
    let policy: AddressPolicy
    let coalescer: Coalescer<FlightKey, LoadedPreview>
    /// The deadlines of the callers waiting on the coalescer's flights.
    let deadlines = DeadlineWatch()
    /// Keys with a `staleWhileRevalidate` refresh running, so a hover storm starts one.
    let refreshing = Mutex<Set<String>>([])
    /// Sources and variants for `media(url:transform:timeout:)`: a memory
    /// LRU of variants, then the persistent cache's blobs (`StoredImageStore`).
    public let images: ImageCache
    /// `settings.resolve` as curl entries (entries that do not parse were refused at the edge).
    let nameOverrides: [String]
    /// Whom TLS trusts: the settings, else `$SSL_CERT_FILE` / `$SSL_CERT_DIR`.
    let caFile: String?, caPath: String?
    /// Proxies from the settings, else the environment.
    let proxies: ProxyTable
    /// `--record` / `--replay` tapes, and the fixed `--clock` (checked at the edge).
    let recordTape: Tape?, replayTape: Tape?
    let clock: Date?
    let usage = UsageCounter()
    /// Hosts that asked to be left alone (429/503 with `Retry-After`).
    public let backoff: HostBackoff
    /// The admit stage: the hosts' `Retry-After` holds and the fleet's rate per host.
    let admission: AdmitStage
    /// The store stage: a preview's lifetime, and what every cache level keeps of a load.
    let storing: StoreStage
    /// Where the engine, its transfers and the cache it makes log their
    /// decisions. The application routes it (`LoggingSystem.bootstrap`).
    public let logger: Logger

    /// - Parameter store: the second cache level; by default the one the
    ///   settings name (`cacheDir`, `cacheEnabled`, `cacheSizeLimit`),
    ///   opened on first use.
    public init(
        settings: Settings, cache: any MetadataCache = MemoryCache(), store: CacheStore? = nil,
        logger: Logger = Logger(label: "linkpeek")
    ) {
        self.settings = settings
        self.logger = logger
        // Recording and replaying keep the cache in memory: a tape must hold
        // what the network said (not a hit from an earlier run), and a replay
        // must answer from the tape alone.
        let persistent = settings.cacheEnabled && settings.record == nil && settings.replay == nil
        let directory = persistent ? CacheLocation.directory(configured: settings.cacheDir) : nil
        let cacheStore = store ?? CacheStore(
            directory: directory, sizeLimit: settings.cacheSizeLimit, writesBehind: settings.cacheWritesBehind,
            logger: logger)
        // A tape is one process's record of the network: no fleet then either.
        let fleet = settings.record == nil && settings.replay == nil ? FleetCache(settings: settings, logger: logger) : nil
        self.cache = PreviewCache(memory: cache, store: cacheStore, fleet: fleet)
        let counters = self.cache.counters
        self.coalescer = Coalescer(onJoin: { counters.joinedFetch() })
        let backoff = HostBackoff()
        self.backoff = backoff
        admission = AdmitStage(backoff: backoff, fleet: fleet, counters: counters, logger: logger)
        images = ImageCache(store: StoredImageStore(store: cacheStore))
        policy = AddressPolicy(
            allowPrivateNetwork: settings.allowPrivateNetwork,
            allowedNetworks: settings.allowedNetworks.compactMap(IPNetwork.init))
        // The CLI and the daemon refuse a bad entry first (`Settings.networkProblem`); a library caller is told here.
        nameOverrides = settings.resolve.compactMap { entry in
            switch NameOverride.parse(entry, field: "resolve") {
            case .success(let override): return override.curlEntry
            case .failure(let problem):
                logger.warning("resolve entry ignored", metadata: ["entry": "\(entry)", "problem": "\(problem.message)"])
                return nil
            }
        }
        caFile = settings.effectiveCAFile
        caPath = settings.effectiveCAPath
        proxies = settings.proxyTable
        recordTape = settings.record.flatMap { Self.openTape(at: $0, logger: logger, Tape.forRecording) }
        replayTape = settings.replay.flatMap { Self.openTape(at: $0, logger: logger, Tape.forReplay) }
        clock = settings.clock.flatMap(Settings.parseClock)
        storing = StoreStage(cache: self.cache, siteRules: settings.siteRules, clock: clock, logger: logger)
        transfers = TransferEngine(
            limits: .init(total: settings.maxConcurrency, perHost: settings.perHostConcurrency))
    }

    /// Stops the transfer thread (fetches still running fail) and writes
    /// what the cache still holds back (`CacheStore.flush`).
    public func shutdown() {
        transfers.shutdown()
        flush()
    }

    public func flush() { cache.store.flush() }

    /// Marks a batch of fetches (the command's URLs): from `beginBatch` to
    /// `endBatch`, an engine whose settings write the cache behind
    /// (`Settings.cacheWritesBehind`) queues what each load stores even while
    /// it runs alone, and writes the queue in one transaction at its bounds,
    /// its delay or the batch's end, as it does for loads that overlap: one
    /// fetch at a time neither waits for a commit of its own nor pays for one.
    /// `shutdown` writes what is left.
    public func beginBatch() { cache.store.beginBatch() }

    public func endBatch() { cache.store.endBatch() }

    /// A tape that cannot be opened is a warning: the run goes on without it.
    private static func openTape(at path: String, logger: Logger, _ open: (String) throws -> Tape) -> Tape? {
        do { return try open(path) } catch {
            logger.warning("cannot open the tape; going on without it", metadata: ["path": "\(path)", "error": "\(error)"])
            return nil
        }
    }

    /// Now, as cache freshness sees it (`Settings.clockOffset`).
    func now() -> Date { Date().addingTimeInterval(settings.clockOffset) }

    /// Timeouts the engine works with: NaN, negatives and zero become the
    /// shortest, anything past `maximumTimeout` the longest.
    static func clampedTimeout(_ seconds: Double) -> Double {
        guard seconds.isFinite else { return seconds.isNaN ? minimumTimeout : maximumTimeout }
        return min(max(seconds, minimumTimeout), maximumTimeout)
    }
    static let minimumTimeout = 0.001
    static let maximumTimeout = 3600.0

    /// What the first `[[site]]` rule matching `url` says of fetching it
    /// (`fetch = "cacheOnly"`: the cache only; `"never"`: no preview), with
    /// the rule's line; nil when no rule says.
    func siteFetchRule(_ url: String) -> (mode: SiteFetch, line: Int)? {
        guard !settings.siteRules.isEmpty, let (_, rule) = settings.siteRules.firstMatch(url: url), let mode = rule.fetch
        else { return nil }
        return (mode, rule.line)
    }

    /// `options` as the `[[site]]` rule for `url` leaves them: `cacheOnly`
    /// makes the cache policy `cacheOnly`; `never` refuses the URL.
    func siteFetchOptions(url: String, _ options: FetchOptions) throws(FetchError) -> FetchOptions {
        guard let (mode, line) = siteFetchRule(url) else { return options }
        switch mode {
        case .always:
            return options
        case .cacheOnly:
            var cacheOnly = options
            cacheOnly.cachePolicy = .cacheOnly
            return cacheOnly
        case .never:
            throw .failed(.fetchRefused, "the [[site]] rule at line \(line) of the configuration says never to fetch this URL.")
        }
    }

    /// The `Accept-Language` a request sends (and is cached under): its own,
    /// else the settings' default (the user's locale).
    func language(_ requested: String?) -> String? { requested ?? settings.acceptLanguage }

    /// A GET with this engine's settings, changed by the first `[[site]]`
    /// rule that matches `url` (`SiteRules.applied`). Every hop the engine
    /// starts (page, icon, image, oEmbed) is built here, so each is judged
    /// by its own host; the address policy is the engine's, whatever the rule.
    func transferRequest(url: String, timeout: Double, maxBytes: Int, headers: [String] = []) -> TransferRequest {
        var request = TransferRequest(
            url: url, userAgent: settings.userAgent, timeout: timeout,
            connectTimeout: min(settings.connectTimeout, timeout), maxRedirects: settings.maxRedirects,
            policy: policy, maxBytes: maxBytes, headers: headers)
        request.nameOverrides = nameOverrides
        request.caFile = caFile
        request.caPath = caPath
        request.proxies = proxies
        request.logger = logger
        SiteRules.apply(settings.siteRules, to: &request)
        return request
    }

    static func iso8601(_ date: Date) -> String {
        UTCTimestamp.string(date)
    }
}
