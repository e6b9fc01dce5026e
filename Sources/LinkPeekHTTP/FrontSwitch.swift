import Hummingbird
import LinkPeek
import Logging
import Synchronization

/// The responder Hummingbird calls: it hands each request to the `Front`
/// in effect when the request came. `SIGHUP` (`reload`) puts a new one in:
/// the token file read again, the limits and the access log as the
/// configuration now says, and a new engine only when the engine's
/// settings changed (it takes over the old one's caches,
/// `LinkPeekEngine(settings:succeeding:)`). The address and the drain
/// limit stay as they were bound: a change of either is logged as needing
/// a restart.
///
/// A replaced engine goes on serving the requests that began with it; it
/// is shut down (its transfer threads joined, `LinkPeekEngine.shutdown`)
/// at a later reload once nothing uses it, or with the current one when
/// the service stops (`shutdown`), so that the process never exits while a
/// replaced engine's curl threads still end (and free TLS state).
final class FrontSwitch: HTTPResponder, Sendable {
    typealias Context = FrontContext

    private let current: Mutex<Front>
    /// Engines replaced by `reload` and not shut down yet.
    private let replaced = Mutex<[LinkPeekEngine]>([])
    /// How an engine is shut down (`LinkPeekEngine.shutdown`; a test counts them).
    private let shutDown: @Sendable (LinkPeekEngine) -> Void
    /// The port bound (the one the system chose for 0), for the log.
    let boundPort = Atomic<Int>(0)

    init(_ front: Front, shutDown: @escaping @Sendable (LinkPeekEngine) -> Void = { $0.shutdown() }) {
        current = Mutex(front)
        self.shutDown = shutDown
    }

    /// The service has stopped: the current engine and every replaced one
    /// shut down, each once.
    func shutdown() {
        let engines = replaced.withLock { replaced in
            defer { replaced = [] }
            return replaced
        }
        let engine = front.engine
        for old in engines where old !== engine { shutDown(old) }
        shutDown(engine)
    }

    /// Shuts down the replaced engines that no request holds any more
    /// (only this list does: nothing can take them again).
    private func shutDownUnused() {
        let unused: [LinkPeekEngine] = replaced.withLock { replaced in
            var unused: [LinkPeekEngine] = []
            var kept: [LinkPeekEngine] = []
            while var engine = replaced.popLast() {
                if isKnownUniquelyReferenced(&engine) { unused.append(engine) } else { kept.append(engine) }
            }
            replaced = kept
            return unused
        }
        for engine in unused { shutDown(engine) }
    }

    var front: Front { current.withLock { $0 } }

    func respond(to request: Request, context: FrontContext) async throws -> Response {
        try await front.respond(to: request, context: context)
    }

    /// Applies what the configuration says now; `makeEngine` makes the
    /// successor of an engine whose settings changed. The lines logged say
    /// what took effect and what did not.
    func reload(_ next: HTTPReload, makeEngine: (Settings, LinkPeekEngine) -> LinkPeekEngine, logger: Logger) {
        apply(next, makeEngine: makeEngine, logger: logger)
        // Once `apply`'s own references are gone.
        shutDownUnused()
    }

    private func apply(_ next: HTTPReload, makeEngine: (Settings, LinkPeekEngine) -> LinkPeekEngine, logger: Logger) {
        for notice in next.notices { logger.warning("\(notice)") }
        let old = front
        var settings = old.settings
        switch next.http {
        case .failure(let problem):
            logger.warning("SIGHUP: [http] not applied, the service goes on as it was: \(problem.message)")
        case .success(var wanted):
            if wanted.host != old.settings.host || wanted.port != old.settings.port {
                let bound = "\(old.settings.host):\(boundPort.load(ordering: .relaxed))"
                logger.warning(
                    "SIGHUP: http.listen is now \(wanted.host):\(wanted.port); the service listens on \(bound) until it is restarted")
                wanted.host = old.settings.host
                wanted.port = old.settings.port
            }
            if wanted.drainTimeout != old.settings.drainTimeout {
                logger.warning("SIGHUP: http.drainTimeout is now \(wanted.drainTimeout) s; it applies from the next start")
                wanted.drainTimeout = old.settings.drainTimeout
            }
            if let problem = BindRule.problem(host: wanted.host, hasTokens: wanted.tokens != nil, noAuth: wanted.noAuth) {
                logger.warning("SIGHUP: [http] not applied, the service goes on as it was: \(problem)")
            } else {
                settings = wanted
            }
        }
        var engine = old.engine
        if next.engineSettings != old.engine.settings {
            old.engine.flush()
            engine = makeEngine(next.engineSettings, old.engine)
            old.metrics.engineChanged()
        }
        old.limiter.setRate(settings.clientRate)
        old.gate.resize(slots: settings.maxConcurrent, queue: settings.maxQueue)
        var accessLog = old.accessLog
        accessLog.logLevel = settings.accessLog ? .info : .critical
        let replacement = Front(
            engine: engine, settings: settings, metrics: old.metrics, limiter: old.limiter, gate: old.gate,
            lifecycle: old.lifecycle, accessLog: accessLog, bodies: old.bodies)
        current.withLock { $0 = replacement }
        if engine !== old.engine { replaced.withLock { $0.append(old.engine) } }
        logger.info("SIGHUP: configuration read again", metadata: [
            "engine": "\(engine === old.engine ? "kept" : "new")",
            "tokens": "\(settings.tokens == nil ? "none" : "read")",
        ])
    }
}

/// What `SIGHUP` reads again: the engine's settings, the HTTP front's, and
/// the sentences about the configuration (its problems).
public struct HTTPReload: Sendable {
    public var engineSettings: Settings
    public var http: Result<HTTPSettings, HTTPSettingsProblem>
    public var notices: [String]

    public init(engineSettings: Settings, http: Result<HTTPSettings, HTTPSettingsProblem>, notices: [String]) {
        self.engineSettings = engineSettings
        self.http = http
        self.notices = notices
    }
}
