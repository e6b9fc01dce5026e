import Hummingbird
import LinkPeek
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

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
    /// address cannot be bound).
    public static func run(settings: HTTPSettings, engine: LinkPeekEngine, logger: Logger = Logger(label: "linkpeek.http")) async -> Int32 {
        let lifecycle = Lifecycle()
        var accessLog = Logger(label: "linkpeek.http.access")
        accessLog.logLevel = settings.accessLog ? .info : .critical
        let front = Front(
            engine: engine, settings: settings, metrics: HTTPMetrics(), lifecycle: lifecycle, accessLog: accessLog)
        let header = TimeAmount.milliseconds(Int64(settings.headerTimeout * 1000))
        let body = TimeAmount.milliseconds(Int64(settings.bodyTimeout * 1000))
        let app = Application(
            responder: front,
            server: .http1(configuration: .init(additionalChannelHandlers: [RequestDeadlines(header: header, body: body)])),
            configuration: .init(address: .hostname(settings.host, port: settings.port), serverName: nil),
            onServerRunning: { channel in
                // The one line a supervisor or a test waits for (the port, when 0 was asked).
                let port = channel.localAddress?.port ?? settings.port
                let line = "linkpeek: listening on http://\(settings.host):\(port)\n"
                _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
            },
            logger: logger)
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: app), .init(service: lifecycle)],
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
        engine.shutdown()
        return code
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
