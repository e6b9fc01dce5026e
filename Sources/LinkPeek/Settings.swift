/// Settings shared by the CLI flags and the daemon's `initializationOptions`.
public struct Settings: Sendable, Equatable, Codable {
    /// Allow loopback, private, link-local and similar addresses (off by default).
    public var allowPrivateNetwork: Bool = false
    /// Non-public networks allowed all the same, in CIDR notation (`10.1.2.3/32`).
    public var allowedNetworks: [String] = []
    /// The default names itself a bot: some sites (X/Twitter) serve Open Graph only to bots.
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
    /// Bytes of body scanned after the head for late metadata, when the head lacked the main fields.
    public var bodyScanBytes: Int = 64 * 1024
    /// Icon or image bytes read at most.
    public var maxSubresourceBytes: Int = 5 * 1024 * 1024

    public static let defaultUserAgent =
        "Mozilla/5.0 (compatible; linkpeek/0.1; +link preview bot) facebookexternalhit/1.1 Twitterbot/1.0"

    public init() {}
}
