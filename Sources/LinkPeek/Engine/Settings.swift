import Options

/// Settings shared by the CLI flags and the daemon's `initializationOptions`.
public struct Settings: Sendable, Equatable, Codable {
    /// Allow loopback, private, link-local and similar addresses (off by default).
    public var allowPrivateNetwork: Bool = false
    /// Non-public networks allowed all the same, in CIDR notation (`10.1.2.3/32`).
    public var allowedNetworks: [String] = []
    /// The default names linkpeek and its version, and
    /// says it is a bot (some sites, X/Twitter among them, serve Open Graph only to bots).
    public var userAgent: String = Settings.defaultUserAgent
    /// Seconds for a whole fetch (default 30).
    public var timeout: Double = 30
    public var connectTimeout: Double = 10
    /// Directory of the persistent cache; nil means the default location
    /// (`CacheLocation`).
    public var cacheDir: String?
    /// False keeps every preview and saved link in memory (`--no-cache`, `cacheDir: null`).
    public var cacheEnabled: Bool = true
    /// Bytes the cache database may take (`--cache-size`, in MiB on the command line).
    public var cacheSizeLimit: Int = 256 * 1024 * 1024
    /// True lets a preview stored while other fetches still run be written
    /// behind, with theirs, in one transaction (at the latest half a second
    /// later, or by `LinkPeekEngine.shutdown()`), so the fetch answers before
    /// it is on disk: `linkpeek fetch` uses it (a batch's cache writes cost a
    /// third as much CPU). False (a daemon) answers only what is written.
    public var cacheWritesBehind: Bool = false
    /// Seconds added to the clock for cache freshness: a test seam
    /// (`--clock-offset`), so a test can look a day ahead without waiting.
    public var clockOffset: Double = 0
    /// Write this process's cache hits and misses to the store now and then,
    /// for `linkpeek cache stats` (the daemon does).
    public var reportsUsage: Bool = false
    /// Transfers running at once, in all (64) and per host (6).
    public var maxConcurrency: Int = 64
    public var perHostConcurrency: Int = 6
    public var maxRedirects: Int = 10
    /// Page bytes read at most, after decompression; reaching it marks the result `truncated`.
    public var maxBodyBytes: Int = 2 * 1024 * 1024
    /// Bytes of body read after the head for late metadata, when the head did not declare every field
    /// (`PageConsumer+Stop`: past the main fields, read unparsed until the body shows a sign of the rest).
    public var bodyScanBytes: Int = 64 * 1024
    /// Icon or image bytes read at most.
    public var maxSubresourceBytes: Int = 5 * 1024 * 1024
    /// The `Accept-Language` sent when a request names none (the CLI puts
    /// the user's locale here, `UserLanguage`); nil or "" sends none.
    public var acceptLanguage: String?

    // MARK: Real networks (name overrides, CA certificates, proxies)

    /// Name overrides in curl's `--resolve` syntax, `HOST:PORT:ADDR[,ADDR…]`
    /// (`NameOverride`); the address policy still judges ADDR.
    public var resolve: [String] = []
    /// CA certificates (PEM) to trust instead of the system store, as curl's
    /// `--cacert`; nil: `$SSL_CERT_FILE` if set, else the system store.
    public var caFile: String?
    /// A directory of hashed CA certificates (`openssl rehash`), as curl's
    /// `--capath`; nil: `$SSL_CERT_DIR` if set.
    public var caPath: String?
    /// The proxy for every URL (`--proxy`); nil: `https_proxy`, `http_proxy`,
    /// `all_proxy` from the environment; "": no proxy at all.
    public var proxy: String?
    /// Hosts that bypass the proxy, comma-separated (`--no-proxy`); nil: `no_proxy`.
    public var noProxy: String?
    /// Save every response read into this directory (`Tape`).
    public var record: String?
    /// Serve responses from this recorded directory, with no network.
    public var replay: String?
    /// When replaying, fetch what is not recorded from the network instead of failing `notRecorded`.
    public var replayFallback: Bool = false
    /// A fixed time (ISO 8601) for `fetchedAt` and `expiresAt`, so snapshots are stable.
    public var clock: String?

    // MARK: Fleet

    /// `redis://[user:password@]host:port[/db]`: Redis as the cache level
    /// shared by a fleet of daemons, behind memory and SQLite (`FleetCache`); nil: none.
    public var fleet: String?
    /// Requests per second to one host for the whole fleet (burst as many), `fleetOriginRates`.
    public var fleetOriginRate: Int = 5
    // MARK: Per site

    /// The configuration file's `[[site]]` rules: the first that matches a
    /// hop's URL changes its request (`LinkPeekEngine.transferRequest`).
    public var siteRules: [SiteRule] = []

    // MARK: -

    /// oEmbed: the bundled provider list and discovery (`--no-oembed`, `initializationOptions.oembed`).
    public var oembed: Bool = true
    /// Site engines (`--no-sites`, `initializationOptions.sites`): false
    /// turns them all off; the engines named in `sitesOff` are off.
    public var sites: Bool = true
    public var sitesOff: [String] = []
    /// Hosts that run GitLab besides gitlab.com (`--gitlab-host`, `initializationOptions.gitlabHosts`).
    public var gitlabHosts: [String] = []

    /// linkpeek's version, as the user agent and `serverInfo` state it.
    public static let version = "0.1.0"
    /// Honest: names linkpeek and no other product's crawler
    /// (`facebookexternalhit`, `Twitterbot`); `--user-agent` chooses otherwise.
    /// It carries no URL until the project has a public address to point a
    /// site operator to (an invented one would be a false statement).
    public static let defaultUserAgent =
        "Mozilla/5.0 (compatible; linkpeek/\(version); link preview bot)"

    public init() {}
}
