import Curl
import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// A network setting, as a problem names it: the CLI by its flag
/// (`--cacert`), the daemon by its `initializationOptions` member.
public enum NetworkSetting: Sendable, Equatable {
    /// The `index`th `resolve` entry.
    case resolve(index: Int)
    case caFile, caPath, proxy, record, replay, clock

    /// The `initializationOptions` member that holds it (`resolve[2]`, `caFile`).
    public var member: String {
        switch self {
        case .resolve(let index): "resolve[\(index)]"
        case .caFile: "caFile"
        case .caPath: "caPath"
        case .proxy: "proxy"
        case .record: "record"
        case .replay: "replay"
        case .clock: "clock"
        }
    }
}

/// The checks and defaults of the network settings, shared by the CLI's
/// `validate()` and the daemon's `initialize`.
extension Settings {
    /// The one check of the network settings, for the CLI's flags and the
    /// daemon's `initializationOptions`: the first problem, as a sentence
    /// naming the setting by `name`; nil when there is none.
    public static func networkProblem(
        resolve: [String], caFile: String?, caPath: String?, proxy: String?,
        record: String?, replay: String?, clock: String?, name: (NetworkSetting) -> String
    ) -> String? {
        resolveProblem(resolve) { name(.resolve(index: $0)) }
            ?? pathProblem(caFile, directory: false, field: name(.caFile))
            ?? pathProblem(caPath, directory: true, field: name(.caPath))
            ?? proxyProblem(proxy, field: name(.proxy))
            ?? tapeProblem(record: record, replay: replay, clock: clock, name: name)
    }

    /// The first `resolve` entry that is not `HOST:PORT:ADDR`, as a sentence
    /// naming `field` (`--resolve`, `initializationOptions.resolve[2]`).
    static func resolveProblem(_ entries: [String], field: (Int) -> String) -> String? {
        for (index, entry) in entries.enumerated() {
            if case .failure(let problem) = NameOverride.parse(entry, field: field(index)) { return problem.message }
        }
        return nil
    }

    /// A sentence naming `field` when `path` is not an existing file
    /// (`directory` false) or directory (true).
    static func pathProblem(_ path: String?, directory: Bool, field: String) -> String? {
        guard let path else { return nil }
        var isDirectory: Bool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory == directory else {
            return "\(field) must name an existing \(directory ? "directory" : "file"): \(path)"
        }
        return nil
    }

    /// The CA file curl is given: `caFile`, else `$SSL_CERT_FILE` (as
    /// OpenSSL programs read it), else nil for the system store.
    var effectiveCAFile: String? { caFile ?? Self.environment("SSL_CERT_FILE") }
    /// The CA directory: `caPath`, else `$SSL_CERT_DIR` (its first entry when it lists several).
    var effectiveCAPath: String? {
        caPath ?? Self.environment("SSL_CERT_DIR")?.split(separator: ":").first.map(String.init)
    }

    /// The proxies in effect: `proxy` for every scheme, else the
    /// environment as curl reads it (`https_proxy`/`HTTPS_PROXY`,
    /// `http_proxy` — lower case only, as curl, since `HTTP_PROXY` can be
    /// set by a CGI request header —, `all_proxy`/`ALL_PROXY`, `no_proxy`/`NO_PROXY`).
    var proxyTable: ProxyTable {
        let bypass = (noProxy ?? Self.environment("no_proxy") ?? Self.environment("NO_PROXY") ?? "")
            .split(separator: ",").map(String.init).filter { !$0.isEmpty }
        if let proxy { return ProxyTable(http: proxy, https: proxy, noProxy: bypass) }
        let all = Self.environment("all_proxy") ?? Self.environment("ALL_PROXY")
        return ProxyTable(
            http: Self.environment("http_proxy") ?? all,
            https: Self.environment("https_proxy") ?? Self.environment("HTTPS_PROXY") ?? all,
            noProxy: bypass)
    }

    /// nil when `proxy` is a usable proxy URL (or "" for none), else a sentence naming `field`.
    static func proxyProblem(_ proxy: String?, field: String) -> String? {
        proxy.flatMap { ProxyTable.problem($0, field: field) }
    }

    /// `text` (ISO 8601, e.g. `2026-01-01T00:00:00Z`) as a date, or nil.
    public static func parseClock(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }

    /// The first problem with the record/replay settings, naming the field by `name`.
    public static func tapeProblem(
        record: String?, replay: String?, clock: String?, name: (NetworkSetting) -> String
    ) -> String? {
        if let clock, parseClock(clock) == nil {
            return "\(name(.clock)) must be an ISO 8601 time such as 2026-01-01T00:00:00Z"
        }
        if let replay, !FileManager.default.fileExists(atPath: replay + "/index.json") {
            return "\(name(.replay)) must name a directory recorded with \(name(.record)) (no index.json in \(replay))"
        }
        if let record, record == replay {
            return "\(name(.record)) and \(name(.replay)) must not name the same directory"
        }
        return nil
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
