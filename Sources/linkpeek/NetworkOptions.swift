import ArgumentParser
import Curl
import LinkPeek
import LinkPeekProtocol
import Options

/// The flags `fetch` and `serve` share: how linkpeek reaches the network.
/// They end up in the one `Settings` value the engine takes (which the
/// daemon's `initializationOptions` also fill).
struct NetworkOptions: ParsableArguments {
    @Option(name: .long, help: "Seconds before a fetch fails with timedOut (default 30).")
    var timeout: Double?

    @Flag(name: .long, help: "Allow loopback, private, link-local and similar addresses.")
    var allowPrivateNetwork = false

    @Option(name: .customLong("allow-network"), help: ArgumentHelp(
        "Allow this non-public network all the same (CIDR, e.g. 10.1.2.3/32); repeatable.", valueName: "cidr"))
    var allowedNetworks: [String] = []

    @Option(name: .long, help: "The User-Agent header (default: linkpeek's own, naming it a link preview bot).")
    var userAgent: String?

    // MARK: Real networks (name overrides, CA certificates, proxies)

    @Option(name: .customLong("resolve"), help: ArgumentHelp(
        "Connect to ADDR for HOST:PORT instead of asking DNS, for the first URL and redirects (curl's syntax; the address policy still applies to ADDR); repeatable.",
        valueName: "host:port:addr"))
    var resolve: [String] = []

    @Option(name: .customLong("cacert"), help: ArgumentHelp(
        "Trust the CA certificates in this PEM file instead of the system store (default: $SSL_CERT_FILE if set).",
        valueName: "file"))
    var caFile: String?

    @Option(name: .customLong("capath"), help: ArgumentHelp(
        "Trust the hashed CA certificates in this directory (openssl rehash; default: $SSL_CERT_DIR if set).",
        valueName: "dir"))
    var caPath: String?

    @Option(name: .customLong("proxy"), help: ArgumentHelp(
        "Send every request through this proxy: http://, https://, socks5h:// (…) URL; \"\" for none (default: https_proxy, http_proxy, all_proxy). Targets are still checked against the address policy before anything reaches the proxy.",
        valueName: "url"))
    var proxy: String?

    @Option(name: .customLong("no-proxy"), help: ArgumentHelp(
        "Hosts that connect directly, comma-separated: domains (with their subdomains), addresses, CIDR ranges, or * (default: no_proxy).",
        valueName: "hosts"))
    var noProxy: String?

    @Option(name: .customLong("record"), help: ArgumentHelp(
        "Save every response read (page, redirects, icon, image) into DIR: index.json plus body files. The cache stays in memory while recording or replaying.",
        valueName: "dir"))
    var record: String?

    @Option(name: .customLong("replay"), help: ArgumentHelp(
        "Serve responses from a DIR made with --record, with no network; anything else fails with notRecorded.",
        valueName: "dir"))
    var replay: String?

    @Flag(name: .customLong("replay-fallback"), help: "With --replay, fetch what is not recorded from the network.")
    var replayFallback = false

    @Option(name: .customLong("clock"), help: ArgumentHelp(
        "Report this time (ISO 8601, e.g. 2026-01-01T00:00:00Z) as fetchedAt, and expiresAt from it, so snapshots are stable.",
        valueName: "time"))
    var clock: String?

    @Flag(name: .customLong("no-oembed"), help: ArgumentHelp(
        "Do not use oEmbed: neither the bundled provider list (YouTube, Vimeo, X, Reddit, Flickr, SoundCloud, Spotify, TikTok, Bluesky) nor endpoints pages name; a wall (bot check, consent or sign-in page) then always fails as blocked."))
    var noOEmbed = false

    @Flag(name: .customLong("no-sites"), help: ArgumentHelp(
        "Do not ask sites' own APIs (GitHub, Stack Exchange, Wikipedia, arXiv, PyPI, npm, crates.io; `linkpeek sites` lists them): read every page. GITHUB_TOKEN, when set, goes to api.github.com only."))
    var noSites = false

    @Option(name: .customLong("gitlab-host"), help: ArgumentHelp(
        "A host that runs GitLab, besides gitlab.com, for the gitlab site engine (repeatable). GITLAB_TOKEN goes to gitlab.com only.",
        valueName: "host"))
    var gitlabHosts: [String] = []

    func validate() throws {
        if let bad = gitlabHosts.first(where: { !SiteURL.isHostName($0) }) {
            throw ValidationError("--gitlab-host is not a plain DNS name: \(bad)")
        }
        if let problem = Settings.networkProblem(
            resolve: resolve, caFile: caFile, caPath: caPath, proxy: proxy, record: record, replay: replay, clock: clock,
            name: Self.flag)
        {
            throw ValidationError(problem + ".")
        }
        for network in allowedNetworks where IPNetwork(network) == nil {
            throw ValidationError("--allow-network \(network) is not an address or CIDR range.")
        }
        if let problem = ParamRanges.timeout.check(timeout, field: "--timeout") { throw ValidationError(problem + ".") }
        guard userAgent?.contains(where: \.isNewline) != true else { throw ValidationError("--user-agent must be one line.") }
    }

    /// The flag that sets a network setting, as `validate()` names it.
    private static func flag(_ setting: NetworkSetting) -> String {
        switch setting {
        case .resolve: "--resolve"
        case .caFile: "--cacert"
        case .caPath: "--capath"
        case .proxy: "--proxy"
        case .record: "--record"
        case .replay: "--replay"
        case .clock: "--clock"
        }
    }

    /// The preferences these flags give: the flag layer, which outranks
    /// every other (`OptionLayers`); a flag not given leaves its key out.
    var options: Options {
        var options = Options()
        options.timeout = timeout
        if allowPrivateNetwork { options.allowPrivateNetwork = true }
        if !allowedNetworks.isEmpty { options.allowNetwork = allowedNetworks }
        options.userAgent = userAgent
        if !resolve.isEmpty { options.resolve = resolve }
        options.caFile = caFile
        options.caPath = caPath
        options.proxy = proxy
        options.noProxy = noProxy
        if noOEmbed { options.oembed = false }
        if noSites { options.sites = .all(false) }
        if !gitlabHosts.isEmpty { options.gitlabHosts = gitlabHosts }
        return options
    }

    /// The flags that are modes of a run rather than preferences (recording,
    /// replaying, a fixed clock), on `settings`.
    func applyModes(to settings: inout Settings) {
        settings.record = record
        settings.replay = replay
        settings.replayFallback = replayFallback
        settings.clock = clock
    }
}
