import ArgumentParser
import LinkPeekHTTP
import LinkPeekProtocol
import Options

/// `serve --http` and its bounds, each also `[http]` in the configuration
/// file (`http.listen`, `http.tokenFile`, …; a flag beats the file). Without
/// `--http` or `--http-from-config`, `serve` is the stdio daemon (an editor
/// runs it with the same file) and the other flags here are refused.
struct HTTPServeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Serve HTTP on ADDRESS:PORT instead of JSON-RPC on stdio (/v1/preview, /v1/oembed, /v1/image, /healthz, /readyz, /metrics; protocol/http.md). ADDRESS defaults to 127.0.0.1; a non-loopback ADDRESS needs --http-token-file or --http-no-auth.",
        valueName: "address:port"))
    var http: String?

    @Flag(name: .long, help: "Serve HTTP on the configuration file's http.listen, with its [http] settings (flags beat them).")
    var httpFromConfig = false

    @Option(name: .long, help: ArgumentHelp(
        "Bearer tokens that may ask, one a line (# comments); requests without one get 401. Read again on SIGHUP.",
        valueName: "file"))
    var httpTokenFile: String?

    @Flag(name: .long, help: "Allow a non-loopback --http address without tokens (anyone who reaches it may use it).")
    var httpNoAuth = false

    @Option(name: .long, help: ArgumentHelp(
        "Requests per second per client (its token, else its address), burst the same; more get 429 (default 50).",
        valueName: "n"))
    var httpClientRate: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Requests that fetch or transform at once; more wait in the queue (default 64).", valueName: "n"))
    var httpMaxConcurrent: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Requests that may wait for a slot; past it the answer is 503 with Retry-After (default 256).", valueName: "n"))
    var httpMaxQueue: Int?

    @Option(name: .long, help: ArgumentHelp(
        "Seconds a client has to send a request's head, and again its body; slower clients are cut (default 10).",
        valueName: "seconds"))
    var httpRequestTimeout: Double?

    @Option(name: .long, help: ArgumentHelp(
        "Seconds SIGTERM gives requests in flight before they are cut, then the cache is written back (default 30).",
        valueName: "seconds"))
    var httpDrainTimeout: Double?

    @Flag(name: .long, help: "Access log lines carry the URL's query too (by default only its host).")
    var httpLogQuery = false

    @Flag(name: .long, help: "No access log (one line per request at info, on stderr or --log-file).")
    var noHttpAccessLog = false

    /// A benchmark's seam: tasks on Swift's cooperative pool, not on NIO's
    /// event loops (`HTTPService.runTasksOnEventLoops`), to compare the two.
    @Flag(name: .long, help: .hidden)
    var httpOnPool = false

    /// Whether `serve` runs the HTTP front rather than the stdio daemon.
    var servesHTTP: Bool { http != nil || httpFromConfig }

    func validate() throws {
        guard servesHTTP else {
            let given = httpTokenFile != nil || httpNoAuth || httpLogQuery || noHttpAccessLog || httpClientRate != nil
                || httpMaxConcurrent != nil || httpMaxQueue != nil || httpRequestTimeout != nil || httpDrainTimeout != nil
            if given {
                throw ValidationError("--http-token-file, --http-no-auth and the other --http flags need --http (or --http-from-config).")
            }
            return
        }
        let problems = [
            HTTPRanges.clientRate.check(httpClientRate.map(Double.init), field: "--http-client-rate"),
            ParamRanges.maxConcurrency.check(httpMaxConcurrent.map(Double.init), field: "--http-max-concurrent"),
            HTTPRanges.queue.check(httpMaxQueue.map(Double.init), field: "--http-max-queue"),
            HTTPRanges.requestTimeout.check(httpRequestTimeout, field: "--http-request-timeout"),
            HTTPRanges.drainTimeout.check(httpDrainTimeout, field: "--http-drain-timeout"),
        ]
        if let problem = problems.compactMap({ $0 }).first { throw ValidationError(problem + ".") }
        if let http, case .failure(let problem) = BindRule.parse(http) { throw ValidationError(problem.message + ".") }
    }

    /// The flags' layer of `[http]` (a flag not given leaves the key to the file).
    func add(to options: inout Options) {
        options.httpListen = http
        options.httpTokenFile = httpTokenFile
        if httpNoAuth { options.httpNoAuth = true }
        options.httpClientRate = httpClientRate.map(Double.init)
        options.httpMaxConcurrent = httpMaxConcurrent.map(Double.init)
        options.httpMaxQueue = httpMaxQueue.map(Double.init)
        options.httpRequestTimeout = httpRequestTimeout
        options.httpDrainTimeout = httpDrainTimeout
        if httpLogQuery { options.httpLogQuery = true }
        if noHttpAccessLog { options.httpAccessLog = false }
    }
}
