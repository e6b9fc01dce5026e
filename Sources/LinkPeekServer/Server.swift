import JSONRPC
import LinkPeek
import LinkPeekProtocol
import Logging

/// The dispatcher: reads decoded messages in input order, answers the quick
/// requests (`initialize`, `cancel`, `shutdown`, `textDocument/documentLink`)
/// at once and runs each request that may wait on the cache or the network
/// (`fetch`, `getCached`, `render`, `getMedia`, `prefetch`, `save`, `unsave`,
/// `saved`, the LSP hover and `documentLink/resolve`) in its own `Task`,
/// kept in a table by request id so that it can be cancelled and answered
/// exactly once (a late result after a cancel is dropped).
///
/// Every request is one `ServiceRequest` type, listed in `requestTypes`, and
/// served by the one generic `serve(_:_:_:_:)` (`ServiceRequest.swift` says
/// what adding one takes).
public actor Server {
    public static let name = "linkpeek"

    enum Lifecycle {
        case running(initialized: Bool)
        case shuttingDown
    }

    /// A request that is running: its task, and what answering it involves.
    struct InFlight {
        /// Nil only while a request that started immediately has not suspended yet.
        var task: Task<Void, Never>?
        var provider: ProviderID?
        var reporter: ProgressReporter?
        var responder: Responder
        /// The progress tokens this request uses, freed when it is answered.
        var tokens: [ProgressToken] = []
    }

    let connection: Connection
    let logger: Logger
    /// Makes the engine for these settings; the second argument is the
    /// engine it replaces, if any, whose caches it may take over.
    let makeService: @Sendable (Settings, (any MetadataService)?) -> any MetadataService
    /// The layers the daemon reads itself (flags, environment, file), read
    /// again on `SIGHUP`.
    var configuration: ConfigurationLoad
    /// Reads the flags, environment and configuration file again (`SIGHUP`).
    var reloadConfiguration: (@Sendable () -> ConfigurationLoad)?
    /// What the client sent (`initializationOptions`, then each
    /// `workspace/didChangeConfiguration` merged in): one layer.
    var client = ClientOptions()
    /// The settings in effect (`applyOptions`).
    var settings = Settings()
    /// Made on first use from `settings`; made again after they change.
    var service: (any MetadataService)?
    /// The engine replaced by a change of settings, until its successor is made.
    var retired: (any MetadataService)?
    var lifecycle = Lifecycle.running(initialized: false)
    var requests: [RequestID: InFlight] = [:]
    var providers = ProviderRegistry<ProviderID, RequestID>()
    /// Progress tokens in use by running requests (`window/workDoneProgress/cancel`, one user per token).
    var progressTokens: [ProgressToken: RequestID] = [:]
    var lsp = LSPSettings()
    var documents = DocumentStore()
    /// The background fetches hovers and prefetch share, by URL.
    var previews: [String: PreviewFlight] = [:]
    var prefetchQueue: [String] = []
    var prefetchRunning = 0
    /// Answers since memory was last given back, and whether an idle check is scheduled (`Server+Idle`).
    var completionsSinceTrim = 0
    var trimCheckPending = false

    init(
        connection: Connection, configuration: ConfigurationLoad, logger: Logger,
        makeService: @escaping @Sendable (Settings, (any MetadataService)?) -> any MetadataService
    ) {
        self.connection = connection
        self.configuration = configuration
        self.logger = logger
        self.makeService = makeService
    }

    /// Handles one connection event; returns the exit code when the session ends.
    func handle(_ event: ConnectionEvent) -> Int32? {
        switch event {
        case .inputClosed:
            logger.info("input closed")
            return 0
        case .incoming(.single(let decoded)):
            return handle(decoded, responder: .direct(connection))
        case .incoming(.batch(let elements)):
            let expected = elements.count(where: \.expectsAnswer)
            let responder = expected > 0 ? Responder.batch(BatchCollector(connection: connection, expected: expected)) : .direct(connection)
            var exitCode: Int32?
            for element in elements {
                exitCode = handle(element, responder: responder) ?? exitCode
            }
            return exitCode
        }
    }

    private func handle(_ decoded: Decoded, responder: Responder) -> Int32? {
        switch decoded {
        case .invalid(let id, let error):
            logger.warning("invalid message: \(error.message)")
            responder.respond(.error(id, error))
        case .message(.request(let id, let method, let params)):
            logger.debug("request \(id) \(method)")
            handle(request: id, method: method, params: params, responder: responder)
        case .message(.notification(let method, let params)):
            logger.debug("notification \(method)")
            return handle(notification: method, params: params)
        case .message(.response(let id, _)):
            logger.debug("ignored a response from the client, id \(id.map(\.description) ?? "null")")
        }
        return nil
    }

    private func handle(request id: RequestID, method: String, params: JSONValue?, responder: Responder) {
        if case .shuttingDown = lifecycle {
            return responder.respond(.error(id, .invalidRequest("server is shutting down")))
        }
        if requests[id] != nil {
            return responder.respond(.error(id, .invalidRequest("request id \(id) is already in use")))
        }
        guard let type = Self.requestTypesByMethod[method] else {
            // A notification sent with an id by mistake: answered, since a
            // request is owed an answer, but nothing is done.
            let error: ResponseError = Self.notificationMethods.contains(method)
                ? .invalidRequest("\(method) is a notification: send it without an id") : .methodNotFound(method)
            return responder.respond(.error(id, error))
        }
        serve(type, id, params, responder)
    }

    /// The notifications the daemon reads (`handle(notification:params:)`).
    static let notificationMethods: Set<String> = [
        ExitNotification.method, InitializedNotification.method, CancelRequestParams.method,
        DidOpenTextDocumentParams.method, DidChangeTextDocumentParams.method, DidCloseTextDocumentParams.method,
        WorkDoneProgressCancelParams.method, DidChangeConfigurationParams.method,
    ]

    private func handle(notification method: String, params: JSONValue?) -> Int32? {
        switch method {
        case ExitNotification.method:
            if case .shuttingDown = lifecycle { return 0 }
            logger.warning("exit without shutdown")
            return 1
        case CancelRequestParams.method:
            // Read from the parsed value, not through `Codable`: an id kept as
            // number text (`1e2`) must match the request's id as written.
            if let id = params?["id"].flatMap(RequestID.init) {
                _ = cancelRequest(id)
            }
        case InitializedNotification.method:
            break
        case DidOpenTextDocumentParams.method: didOpen(params)
        case DidChangeTextDocumentParams.method: didChange(params)
        case DidCloseTextDocumentParams.method: didClose(params)
        case DidChangeConfigurationParams.method: didChangeConfiguration(params)
        case WorkDoneProgressCancelParams.method:
            if case .success(let params) = decodeRequest(WorkDoneProgressCancelParams.self, from: params),
                let id = progressTokens[params.token] {
                cancelRequest(id)
            }
        default:
            logger.debug("ignored unknown notification \(method)")
        }
        return nil
    }
}

extension Decoded {
    /// Whether the peer is owed an answer: requests and malformed messages.
    var expectsAnswer: Bool {
        switch self {
        case .invalid, .message(.request): true
        case .message(.notification), .message(.response): false
        }
    }
}
