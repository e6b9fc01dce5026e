import ArgumentParser
import LinkPeekHTTP
import LinkPeekProtocol

/// `serve --http` and its bounds. Without `--http`, `serve` is the stdio
/// daemon and the other flags here are refused.
struct HTTPServeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Serve HTTP on ADDRESS:PORT instead of JSON-RPC on stdio (/v1/preview, /v1/oembed, /v1/image, /healthz, /readyz, /metrics; protocol/http.md). ADDRESS defaults to 127.0.0.1; a non-loopback ADDRESS needs --http-token-file or --http-no-auth.",
        valueName: "address:port"))
    var http: String?

    @Option(name: .long, help: ArgumentHelp(
        "Bearer tokens that may ask, one a line (# comments); requests without one get 401.", valueName: "file"))
    var httpTokenFile: String?

    @Flag(name: .long, help: "Allow a non-loopback --http address without tokens (anyone who reaches it may use it).")
    var httpNoAuth = false

    @Option(name: .long, help: ArgumentHelp(
        "Requests per second per client (its token, else its address), burst the same; more get 429.", valueName: "n"))
    var httpClientRate: Int = 50

    @Option(name: .long, help: ArgumentHelp(
        "Requests that fetch or transform at once; more wait in the queue.", valueName: "n"))
    var httpMaxConcurrent: Int = 64

    @Option(name: .long, help: ArgumentHelp(
        "Requests that may wait for a slot; past it the answer is 503 with Retry-After.", valueName: "n"))
    var httpMaxQueue: Int = 256

    @Option(name: .long, help: ArgumentHelp(
        "Seconds a client has to send a request's head, and again its body; slower clients are cut.",
        valueName: "seconds"))
    var httpRequestTimeout: Double = 10

    @Option(name: .long, help: ArgumentHelp(
        "Seconds SIGTERM gives requests in flight before they are cut (then the cache is written back).",
        valueName: "seconds"))
    var httpDrainTimeout: Double = 30

    @Flag(name: .long, help: "Access log lines carry the URL's query too (by default only its host).")
    var httpLogQuery = false

    @Flag(name: .long, help: "No access log (one line per request at info, on stderr or --log-file).")
    var noHttpAccessLog = false

    static let clientRates = NumberRange(1...100_000, integral: true)
    static let queueSizes = NumberRange(0...100_000, integral: true)
    static let requestTimeouts = NumberRange(0.1...600, unit: "seconds")
    static let drainTimeouts = NumberRange(0...3600, unit: "seconds")

    func validate() throws {
        guard let http else {
            let given = httpTokenFile != nil || httpNoAuth || httpLogQuery || noHttpAccessLog
            if given { throw ValidationError("--http-token-file, --http-no-auth and the other --http flags need --http.") }
            return
        }
        let problems = [
            Self.clientRates.check(Double(httpClientRate), field: "--http-client-rate"),
            ParamRanges.maxConcurrency.check(Double(httpMaxConcurrent), field: "--http-max-concurrent"),
            Self.queueSizes.check(Double(httpMaxQueue), field: "--http-max-queue"),
            Self.requestTimeouts.check(httpRequestTimeout, field: "--http-request-timeout"),
            Self.drainTimeouts.check(httpDrainTimeout, field: "--http-drain-timeout"),
        ]
        if let problem = problems.compactMap({ $0 }).first { throw ValidationError(problem + ".") }
        if httpTokenFile != nil, httpNoAuth { throw ValidationError("--http-token-file and --http-no-auth exclude each other.") }
        switch BindRule.parse(http) {
        case .failure(let problem): throw ValidationError(problem.message + ".")
        case .success(let address):
            if let problem = BindRule.problem(host: address.host, hasTokens: httpTokenFile != nil, noAuth: httpNoAuth) {
                throw ValidationError(problem + ".")
            }
        }
    }

    /// The service's settings (the token file read now: a usage error when it cannot be).
    func settings() throws -> HTTPSettings? {
        guard let http, case .success(let address) = BindRule.parse(http) else { return nil }
        var tokens: TokenSet?
        if let httpTokenFile {
            switch TokenSet.load(path: httpTokenFile) {
            case .failure(let problem): throw ValidationError("--http-token-file: \(problem.message).")
            case .success(let set): tokens = set
            }
        }
        var settings = HTTPSettings(host: address.host, port: address.port, tokens: tokens)
        settings.clientRate = httpClientRate
        settings.maxConcurrent = httpMaxConcurrent
        settings.maxQueue = httpMaxQueue
        settings.headerTimeout = httpRequestTimeout
        settings.bodyTimeout = httpRequestTimeout
        settings.drainTimeout = httpDrainTimeout
        settings.logsQuery = httpLogQuery
        settings.accessLog = !noHttpAccessLog
        return settings
    }
}
