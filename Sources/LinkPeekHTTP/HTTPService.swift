import Hummingbird
import LinkPeek
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import UnixSignals

#if canImport(Glibc)
import Glibc
#endif

/// `linkpeek serve --http`: the engine behind Hummingbird, run by
/// swift-service-lifecycle. `SIGTERM` (or `SIGINT`) marks the service
/// draining (`/readyz` says so), stops accepting, lets the requests in
/// flight finish within `drainTimeout`, then the engine writes its cache
/// back and stops; the process exits 0.
public enum HTTPService {
    /// Serves until a signal; the exit code (0 after a drain, 1 when the
    /// address cannot be bound). `SIGHUP` calls `reload` and applies what
    /// it reads from the next request on (`FrontSwitch`); `makeEngine`
    /// makes an engine's successor when its settings changed.
    public static func run(
        settings: HTTPSettings, engine: LinkPeekEngine,
        reload: (@Sendable () -> HTTPReload)? = nil,
        makeEngine: @escaping @Sendable (Settings, LinkPeekEngine) -> LinkPeekEngine = { settings, _ in
            LinkPeekEngine(settings: settings)
        },
        logger: Logger = Logger(label: "linkpeek.http")
    ) async -> Int32 {
        let lifecycle = Lifecycle()
        var accessLog = Logger(label: "linkpeek.http.access")
        accessLog.logLevel = settings.accessLog ? .info : .critical
        let front = FrontSwitch(Front(
            engine: engine, settings: settings, metrics: HTTPMetrics(),
            limiter: ClientLimiter(rate: settings.clientRate),
            gate: AdmissionGate(slots: settings.maxConcurrent, queue: settings.maxQueue),
            lifecycle: lifecycle, accessLog: accessLog))
        let app = Application(
            responder: front,
            // Made for each connection: the timeouts in effect when it opens, then the answers from memory.
            server: .http1(configuration: .init(additionalChannelHandlers: MemoryAnswers.handlers(front))),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: nil),
            onServerRunning: { channel in
                // The one line a supervisor or a test waits for (the port, when 0 was asked).
                let port = channel.localAddress?.port ?? settings.port
                front.boundPort.store(port, ordering: .relaxed)
                let line = "linkpeek: listening on http://\(settings.host):\(port)\n"
                _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
            },
            logger: logger)
        // Taken before the address is bound: a SIGHUP from then on reloads, never ends the process
        // (its default action would, before the source sees it).
        _ = signal(SIGHUP, SIG_IGN)
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        let reloader = Reloader(hangups: hangups, front: front, reload: reload, makeEngine: makeEngine, logger: logger)
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: app), .init(service: lifecycle), .init(service: reloader)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = .milliseconds(Int64(settings.drainTimeout * 1000))
        let group = ServiceGroup(configuration: configuration)
        var code: Int32 = 0
        do {
            try await group.run()
        } catch {
            if !lifecycle.isDraining {
                logger.error("the HTTP service stopped", metadata: ["error": "\(error)"])
                code = 1
            } else {
                logger.warning("requests still in flight were cut at the drain limit", metadata: [
                    "seconds": "\(settings.drainTimeout)",
                ])
            }
        }
        front.shutdown()
        return code
    }
}

extension HTTPSettings {
    /// The slow-client handler for a new connection.
    var deadlines: RequestDeadlines {
        RequestDeadlines(
            header: .milliseconds(Int64(headerTimeout * 1000)), body: .milliseconds(Int64(bodyTimeout * 1000)))
    }
}

/// `SIGHUP` for the HTTP front: the configuration read again and applied
/// (`FrontSwitch.reload`), until the service shuts down. Without a
/// `reload` the signal is still taken (its default action would end the
/// process) and logged.
struct Reloader: Service {
    let hangups: UnixSignalsSequence
    let front: FrontSwitch
    let reload: (@Sendable () -> HTTPReload)?
    let makeEngine: @Sendable (Settings, LinkPeekEngine) -> LinkPeekEngine
    let logger: Logger

    func run() async throws {
        for await _ in hangups.cancelOnGracefulShutdown() {
            guard let reload else {
                logger.info("SIGHUP: nothing to read again")
                continue
            }
            front.reload(reload(), makeEngine: makeEngine, logger: logger)
        }
    }
}

/// The service's own state through its life: draining once a shutdown
/// signal came. It is a `Service` that waits for that signal (services shut
/// down in reverse order, so it hears it before the server stops accepting).
final class Lifecycle: Service, Sendable {
    private let draining = Atomic<Bool>(false)

    var isDraining: Bool { draining.load(ordering: .relaxed) }

    func run() async throws {
        // Cancelled instead (the server failed, say): not a drain.
        do { try await gracefulShutdown() } catch { return }
        draining.store(true, ordering: .relaxed)
    }
}
