import Options

extension HTTPSettings {
    /// The settings the merged options ask for (the `--http-…` flags over
    /// `LINKPEEK_HTTP_*` over `[http]` in the configuration file over the
    /// defaults), the token file read now; a problem is one sentence.
    /// `listen` missing is a problem: the caller asked for the HTTP front.
    public static func resolve(_ options: Options) -> Result<HTTPSettings, HTTPSettingsProblem> {
        guard let listen = options.httpListen else {
            return .failure(HTTPSettingsProblem("--http-from-config needs http.listen in [http] (or --http ADDRESS:PORT)"))
        }
        guard let address = ListenAddress.parse(listen) else { return .failure(HTTPSettingsProblem(BindProblem(listen).message)) }
        let noAuth = options.httpNoAuth ?? false
        if options.httpTokenFile != nil, noAuth {
            return .failure(HTTPSettingsProblem(
                "--http-token-file (http.tokenFile) and --http-no-auth (http.noAuth) exclude each other"))
        }
        if let problem = BindRule.problem(host: address.host, hasTokens: options.httpTokenFile != nil, noAuth: noAuth) {
            return .failure(HTTPSettingsProblem(problem))
        }
        var tokens: TokenSet?
        if let path = options.httpTokenFile {
            switch TokenSet.load(path: path) {
            case .failure(let problem): return .failure(HTTPSettingsProblem("--http-token-file: \(problem.message)"))
            case .success(let set): tokens = set
            }
        }
        var settings = HTTPSettings(host: address.host, port: address.port, tokens: tokens)
        settings.noAuth = noAuth
        // The ranges were checked where each value came in (flag, variable, file).
        if let rate = options.httpClientRate.flatMap({ Int(exactly: $0) }) { settings.clientRate = rate }
        if let slots = options.httpMaxConcurrent.flatMap({ Int(exactly: $0) }) { settings.maxConcurrent = slots }
        if let queue = options.httpMaxQueue.flatMap({ Int(exactly: $0) }) { settings.maxQueue = queue }
        if let seconds = options.httpRequestTimeout {
            settings.headerTimeout = seconds
            settings.bodyTimeout = seconds
        }
        if let seconds = options.httpDrainTimeout { settings.drainTimeout = seconds }
        if let query = options.httpLogQuery { settings.logsQuery = query }
        if let log = options.httpAccessLog { settings.accessLog = log }
        return .success(settings)
    }
}

/// Why the HTTP front cannot start (or take a reload) with these settings.
public struct HTTPSettingsProblem: Error, Sendable, Equatable {
    public let message: String
    init(_ message: String) { self.message = message }
}
