import LinkPeek
import Logging
import Synchronization
import Testing

@testable import LinkPeekHTTP

/// An engine that `SIGHUP` replaced is shut down (its transfer threads
/// joined) once no request holds it, or when the service stops: never
/// left to its `deinit`, which does not wait for them.
struct FrontSwitchTests {
    private func settings(agent: String) -> Settings {
        var settings = Settings()
        settings.cacheEnabled = false
        settings.userAgent = agent
        return settings
    }

    private func front(_ engine: LinkPeekEngine) -> Front {
        let http = HTTPSettings(port: 0)
        return Front(
            engine: engine, settings: http, metrics: HTTPMetrics(), limiter: ClientLimiter(rate: http.clientRate),
            gate: AdmissionGate(slots: 1, queue: 1), lifecycle: Lifecycle(), accessLog: Logger(label: "test"))
    }

    private func reload(_ fronts: FrontSwitch, agent: String) {
        fronts.reload(
            HTTPReload(engineSettings: settings(agent: agent), http: .success(fronts.front.settings), notices: []),
            makeEngine: { settings, _ in LinkPeekEngine(settings: settings) }, logger: Logger(label: "test"))
    }

    @Test func replacedEnginesAreShutDownOnceUnusedOrWhenTheServiceStops() {
        // By user agent: the test holds no engine itself, only the fronts a running request would.
        let shutDown = Mutex<[String]>([])
        let fronts = FrontSwitch(
            front(LinkPeekEngine(settings: settings(agent: "first"))),
            shutDown: { engine in shutDown.withLock { $0.append(engine.settings.userAgent) } })
        func current() -> String { fronts.front.engine.settings.userAgent }

        // A request still running with the first engine keeps it from being shut down.
        var running: Front? = fronts.front
        reload(fronts, agent: "second")
        #expect(current() == "second")
        #expect(shutDown.withLock { $0 }.isEmpty)

        // Once that request is done, the next reload shuts it down.
        running = nil
        reload(fronts, agent: "second")  // the same settings: the engine is kept
        #expect(current() == "second")
        #expect(shutDown.withLock { $0 } == ["first"])

        // The second engine, replaced while a request holds it, is kept...
        running = fronts.front
        reload(fronts, agent: "third")
        #expect(current() == "third")
        #expect(shutDown.withLock { $0 } == ["first"])

        // ...until the service stops: then it and the current one are shut down, each once.
        fronts.shutdown()
        #expect(shutDown.withLock { $0 } == ["first", "second", "third"])
        #expect(running?.engine.settings.userAgent == "second")
    }
}
