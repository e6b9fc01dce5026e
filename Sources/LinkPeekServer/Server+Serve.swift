import Dispatch
import JSONRPC
import LinkPeek
import LinkPeekProtocol
import Logging
import Options

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Server {
    /// What the session loop waits for.
    enum Event: Sendable {
        case connection(ConnectionEvent)
        case signal(Int32)
    }

    /// Runs a daemon session over `service` until `exit`, end of input or
    /// SIGTERM/SIGINT; returns the exit code for the executable to `exit`
    /// with. `initializationOptions` cannot reconfigure a service given this
    /// way; use `serve(settings:makeService:…)` for that.
    public static func serve(
        service: any MetadataService,
        input: Int32 = STDIN_FILENO,
        output: Int32 = STDOUT_FILENO,
        logger: Logger = Logger(label: "linkpeek.server"),
        clientLog: ClientLog? = nil,
        handleSignals: Bool = true
    ) async -> Int32 {
        await serve(
            configuration: ConfigurationLoad(), makeService: { _, _ in service },
            input: input, output: output, logger: logger, clientLog: clientLog, handleSignals: handleSignals)
    }

    /// Runs a daemon session; `makeService` builds the engine from the
    /// settings in effect (`configuration`'s layers with the client's) when
    /// the first request needs it, and again after they change, given the
    /// engine it replaces.
    ///
    /// When `output` is standard output, fd 1 is redirected to stderr and the
    /// protocol writes to a duplicate, so a stray `print` cannot corrupt the
    /// stream. SIGPIPE is ignored process-wide. With `handleSignals`,
    /// SIGTERM and SIGINT end the session like end of input: running fetches
    /// are cancelled and answered, the service is shut down (its transfers'
    /// threads end, its cache is written), output is flushed, exit code 0.
    /// `configuration.notices`: the configuration's problems, logged and
    /// sent once as `window/showMessage` with the `initialize` answer.
    /// `logger` is the daemon's own; `clientLog`, when the executable put its
    /// handler into the logging system, gets the connection for the session
    /// and sends warnings to the client as `window/logMessage`.
    /// `reloadConfiguration`, with `handleSignals`: what `SIGHUP` reads again
    /// (the client's layer stays).
    /// `outputLimits` lowers the output queue's limits (protocol §7) for a test.
    public static func serve(
        configuration: ConfigurationLoad,
        reloadConfiguration: (@Sendable () -> ConfigurationLoad)? = nil,
        makeService: @escaping @Sendable (Settings, (any MetadataService)?) -> any MetadataService,
        input: Int32 = STDIN_FILENO,
        output: Int32 = STDOUT_FILENO,
        logger: Logger = Logger(label: "linkpeek.server"),
        clientLog: ClientLog? = nil,
        handleSignals: Bool = true,
        outputLimits: OutputLimits = OutputLimits()
    ) async -> Int32 {
        StandardStreams.ignoreSIGPIPE()
        let output = output == STDOUT_FILENO ? StandardStreams.takeStandardOutput() : output
        let connection = Connection(input: input, output: output, limits: outputLimits)
        clientLog?.attach(connection)
        let server = Server(connection: connection, configuration: configuration, logger: logger, makeService: makeService)
        await server.start(reload: reloadConfiguration)
        for notice in configuration.notices { logger.warning("\(notice)") }

        let events = EventInbox<Event>()
        let signals = reloadConfiguration == nil ? [SIGTERM, SIGINT] : [SIGTERM, SIGINT, SIGHUP]
        let signalSources = handleSignals ? installSignalSources(signals) { events.yield(.signal($0)) } : []
        defer { signalSources.forEach { $0.cancel() } }
        connection.start { events.yield(.connection($0)) }

        let exitCode = await server.run(until: events)
        events.finish()
        await server.cancelAll()
        // The transfers' threads end before the process exits (the caller
        // exits next), then what the cache holds back is written.
        await server.service?.shutdown()
        // What is logged from here on has no client to read it.
        clientLog?.detach()
        if await !connection.close(timeout: 5) {
            logger.warning("output not flushed: the client is not reading")
        }
        if connection.droppedCount > 0 {
            logger.info("dropped \(connection.droppedCount) progress notifications for a slow client")
        }
        logger.info("exiting with code \(exitCode)")
        return exitCode
    }

    /// Handles events in input order until the session ends; returns the exit code.
    ///
    /// The loop runs on the actor itself, so an event is handled where it
    /// resumes, without a hop from a loop task to the actor (each hop is a
    /// job that may wake another thread: latency with one request
    /// outstanding is mostly such wake-ups).
    func run(until events: EventInbox<Event>) async -> Int32 {
        while let event = await events.next() {
            switch event {
            case .connection(let event):
                if let code = handle(event) { return code }
            case .signal(SIGHUP):
                reload()
            case .signal(let number):
                logger.info("signal \(number): shutting down")
                return 0
            }
        }
        return 0
    }

    /// The settings in effect at start, and what `SIGHUP` reads again.
    func start(reload: (@Sendable () -> ConfigurationLoad)?) {
        reloadConfiguration = reload
        applyOptions()
        lsp.pendingNotices = configuration.notices
    }

    private static func installSignalSources(
        _ signals: [Int32], _ handler: @escaping @Sendable (Int32) -> Void
    ) -> [any DispatchSourceSignal] {
        signals.map { number in
            // The default action would kill the process before the source sees the signal.
            _ = signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }
}
