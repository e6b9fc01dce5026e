import Hummingbird
import LinkPeek
import Logging
import Synchronization

/// The HTTP front: one responder for every endpoint. Each request is
/// checked in this order — method, token, per-client limit — then served by
/// its endpoint's handler (`Front+Preview`, `+OEmbed`, `+Image`, `+Probes`),
/// counted in `/metrics` and written to the access log in one line.
///
/// A `Front` never changes: `SIGHUP` makes a new one (`FrontSwitch`) that
/// the next requests use, while a running request keeps the one it began
/// with. It is a class so that a request takes one reference, not one to
/// each of its parts (shared by every event loop, those counts are written
/// from both cores on each request).
///
/// Where code runs: `respond` runs on a task of Hummingbird's per connection,
/// on the global executor, which `serve --http` makes NIO's event loops
/// (`HTTPService.runTasksOnEventLoops`): the task runs on its connection's
/// loop thread. A fresh cached preview is answered there from memory;
/// fetches and image transforms run inside the admission gate.
final class Front: HTTPResponder, Sendable {
    typealias Context = FrontContext

    let engine: LinkPeekEngine
    let settings: HTTPSettings
    let metrics: HTTPMetrics
    let limiter: ClientLimiter
    let gate: AdmissionGate
    let lifecycle: Lifecycle
    /// The access log: one line per request at `info`.
    let accessLog: Logger
    /// The last previews answered, ready to send.
    let bodies: ReadyBodies
    /// This front's number, unique in the process: what a connection
    /// remembers of the front that worked something out, without holding
    /// it (and its engine) while the connection is idle.
    let serial: Int
    private static let serials = Atomic<Int>(0)

    init(
        engine: LinkPeekEngine, settings: HTTPSettings, metrics: HTTPMetrics, limiter: ClientLimiter,
        gate: AdmissionGate, lifecycle: Lifecycle, accessLog: Logger, bodies: ReadyBodies = ReadyBodies()
    ) {
        self.bodies = bodies
        serial = Self.serials.add(1, ordering: .relaxed).newValue
        self.engine = engine
        self.settings = settings
        self.metrics = metrics
        self.limiter = limiter
        self.gate = gate
        self.lifecycle = lifecycle
        self.accessLog = accessLog
    }

    func respond(to request: Request, context: FrontContext) async throws -> Response {
        let start = ContinuousClock.now
        let endpoint = Endpoint(path: request.uri.path)
        metrics.began()
        let (response, url) = await answer(request, endpoint: endpoint, context: context)
        ended(endpoint, request.method, path: request.uri.path, code: Int(response.status.code), url: url,
            since: start, client: context.clientAddress)
        return response
    }

    /// A request answered (here, or in the pipeline by `MemoryAnswers`):
    /// counted in `/metrics` and written to the access log.
    func ended(
        _ endpoint: Endpoint, _ method: HTTPRequest.Method, path: String, code: Int, url: String?,
        since start: ContinuousClock.Instant, client: @autoclosure () -> String
    ) {
        ended(endpoint, code: code, line: accessLine(method, path: path, code: code, url: url), since: start, client: client())
    }

    /// The same with the access log line's start made before (`accessLine`).
    func ended(
        _ endpoint: Endpoint, code: Int, line: @autoclosure () -> String, since start: ContinuousClock.Instant,
        client: @autoclosure () -> String
    ) {
        let elapsed = ContinuousClock.now - start
        // Safe: a request's time is far below 2^63 ns (292 years).
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        metrics.ended(endpoint, code: code, nanoseconds: nanoseconds)
        if accessLog.logLevel <= .info {
            let milliseconds = Double(nanoseconds / 1000) / 1000
            accessLog.info("\(line()) \(milliseconds)ms client=\(client())")
        }
    }

    /// The response, and the `url` parameter when there was one (for the log).
    /// (On the caller's executor: no hop in or out of it.)
    nonisolated(nonsending) private func answer(_ request: Request, endpoint: Endpoint, context: FrontContext) async
        -> (Response, String?)
    {
        guard request.method == .get || request.method == .head else {
            var response = Reply.problem(.methodNotAllowed, reason: "methodNotAllowed", "Only GET is served.")
            response.headers[.allow] = "GET, HEAD"
            return (response, nil)
        }
        if endpoint == .other {
            return (Reply.problem(.notFound, reason: "noSuchEndpoint", "There is no endpoint \(request.uri.path)."), nil)
        }
        if endpoint.isProbe { return (await probe(endpoint), nil) }
        var client = context.client
        if let tokens = settings.tokens {
            guard let token = Self.bearer(request.headers), tokens.accepts(token.utf8) else {
                var response = Reply.problem(
                    .unauthorized, reason: "unauthorized", "A valid bearer token is required (Authorization: Bearer …).")
                response.headers[.wwwAuthenticate] = "Bearer"
                return (response, nil)
            }
            client = .token(token)
        }
        if let seconds = limiter.admit(client) {
            metrics.limitedClient()
            return (Reply.retryLater(.tooManyRequests, seconds: seconds, reason: "clientLimited",
                "This client sent more than \(settings.clientRate) requests per second."), nil)
        }
        let query = request.uri.queryParameters
        let url = query["url"].map(String.init)
        switch endpoint {
        case .preview: return (await preview(query, request: request), url)
        case .oembed: return (await oembed(query), url)
        case .image: return (await image(query, request: request), url)
        case .metrics: return (scrape(), nil)
        case .healthz, .readyz, .other: return (Reply.problem(.notFound, reason: "noSuchEndpoint", ""), nil)
        }
    }

    /// The token of `Authorization: Bearer <token>`.
    static func bearer(_ headers: HTTPFields) -> String? {
        guard let value = headers[.authorization] else { return nil }
        let prefix = "Bearer "
        guard value.count > prefix.count, value.prefix(prefix.count).lowercased() == "bearer " else { return nil }
        return String(value.dropFirst(prefix.count))
    }

    /// The access log line of a request (`GET /v1/preview 200
    /// host=example.com 1.2ms client=127.0.0.1`) up to its time: the
    /// URL's host, its query only with `--http-log-query`.
    func accessLine(_ method: HTTPRequest.Method, path: String, code: Int, url: String?) -> String {
        var line = "\(method) \(path) \(code)"
        if let url, let parts = URLParts(url) {
            line += " host=\(parts.host)"
            if settings.logsQuery, let query = parts.query { line += " query=\(query)" }
        }
        return line
    }
}

/// The host and query of a URL, without Foundation's parser (a log line
/// only), read over its UTF-8 bytes: the delimiters are all ASCII.
struct URLParts {
    let host: String
    /// The host and its port as written (`host:8080`), without user info.
    let authority: String
    let query: String?

    init?(_ url: String) {
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[colon...].starts(with: "://".utf8)
        else { return nil }
        let rest = bytes[bytes.index(colon, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[authority.index(after: at)...] }
        self.authority = String(Substring(authority))
        if authority.first == UInt8(ascii: "[") {
            if let close = authority.firstIndex(of: UInt8(ascii: "]")) { authority = authority[...close] }
        } else if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            authority = authority[..<colon]
        }
        guard !authority.isEmpty else { return nil }
        host = String(Substring(authority))
        let afterAuthority = rest[authorityEnd...]
        if let mark = afterAuthority.firstIndex(of: UInt8(ascii: "?")) {
            let end = afterAuthority[mark...].firstIndex(of: UInt8(ascii: "#")) ?? afterAuthority.endIndex
            query = String(Substring(afterAuthority[afterAuthority.index(after: mark)..<end]))
        } else {
            query = nil
        }
    }
}
