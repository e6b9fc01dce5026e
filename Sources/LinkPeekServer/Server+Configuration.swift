import JSONRPC
import LinkPeek
import LinkPeekProtocol
import Options

/// The preferences a daemon starts with: the layers it reads itself (flags,
/// environment, configuration file), what the engine's settings start from
/// besides them, and the problems found, each one sentence.
public struct ConfigurationLoad: Sendable {
    /// What no preference sets: the user's language, the run's modes
    /// (`--record`, `--replay`, `--clock`), the test clock, usage reports.
    public var base: Settings
    /// The flag, environment and file layers; the client's goes between
    /// the flags and the environment (`OptionLayers`).
    public var layers: OptionLayers
    public var notices: [String]

    public init(base: Settings = Settings(), layers: OptionLayers = OptionLayers(), notices: [String] = []) {
        self.base = base
        self.layers = layers
        self.notices = notices
    }

    /// The settings these layers give, before any client's.
    public var settings: Settings {
        var settings = base
        settings.apply(layers.merged)
        return settings
    }
}

extension Server {
    /// The settings in effect from the configuration and the client's one
    /// layer, in one place: flag > client > environment > file > default
    /// (`OptionLayers`). The engine is made again only when its settings
    /// change; a running request keeps the engine it started with, and the
    /// next one inherits its caches (`makeService`).
    func applyOptions() {
        var layers = configuration.layers
        layers.set(client.options, from: .client)
        let merged = layers.merged
        var next = configuration.base
        client.applyModes(to: &next)
        next.apply(merged)
        lsp.apply(merged)
        guard next != settings else { return }
        settings = next
        if let service { retired = service }
        service = nil
    }

    /// `workspace/didChangeConfiguration`: the keys given are merged into
    /// the client's layer, from the next request on. Bad settings change
    /// nothing and are shown to the client (a notification has no answer).
    func didChangeConfiguration(_ rawParams: JSONValue?) {
        let decoded = decodeRequest(DidChangeConfigurationParams.self, from: rawParams).flatMap { _ in
            Options.client(rawParams?["settings"], field: "settings")
        }
        switch decoded {
        case .failure(let error):
            showProblems(["workspace/didChangeConfiguration ignored: \(error.message)"])
        case .success(let options):
            client = options.merged(over: client)
            applyOptions()
            logger.info("settings changed by workspace/didChangeConfiguration")
        }
    }

    /// `SIGHUP`: reads the flags, environment and configuration file again;
    /// the client's layer stays. Problems in the file are logged and shown,
    /// and the rest of it applies.
    func reload() {
        guard let reloadConfiguration else { return }
        configuration = reloadConfiguration()
        applyOptions()
        logger.info("SIGHUP: configuration read again")
        showProblems(configuration.notices)
    }

    /// Logs each problem; shows it to the client as `window/showMessage`
    /// once the session is initialized, else with the `initialize` answer.
    func showProblems(_ problems: [String]) {
        for problem in problems { logger.warning("\(problem)") }
        guard case .running(initialized: true) = lifecycle else {
            lsp.pendingNotices += problems
            return
        }
        lsp.pendingNotices = problems
        sendPendingNotices()
    }
}
