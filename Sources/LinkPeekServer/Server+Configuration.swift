import JSONRPC
import LinkPeek
import LinkPeekProtocol
import Options

/// The preferences a daemon starts with (flags, environment, configuration
/// file): the engine's settings, the editor-facing keys, and the problems
/// found, each one sentence.
public struct ConfigurationLoad: Sendable {
    public var settings: Settings
    public var editorDefaults: Options
    public var notices: [String]

    public init(settings: Settings, editorDefaults: Options, notices: [String]) {
        self.settings = settings
        self.editorDefaults = editorDefaults
        self.notices = notices
    }
}

extension Server {
    /// `workspace/didChangeConfiguration`: the keys given override what is
    /// in effect, from the next request on. A running request keeps the
    /// engine (and so the settings) it started with. Bad settings change
    /// nothing and are shown to the client (a notification has no answer).
    func didChangeConfiguration(_ rawParams: JSONValue?) {
        let decoded = decodeRequest(DidChangeConfigurationParams.self, from: rawParams) {
            $0.settings?.networkProblem()
        }
        switch decoded {
        case .failure(let error):
            showProblems(["workspace/didChangeConfiguration ignored: \(error.message)"])
        case .success(let params):
            guard let options = params.settings else { return }
            clientOptions.append(options)
            settings.apply(options)
            lsp.apply(options)
            service = nil
            logger.info("settings changed by workspace/didChangeConfiguration")
        }
    }

    /// `SIGHUP`: reads the flags, environment and configuration file again,
    /// then applies what the client sent over them, as at start. Problems in
    /// the file are logged and shown, and the rest of it applies.
    func reload() {
        guard let reloadConfiguration else { return }
        let load = reloadConfiguration()
        var settings = load.settings
        var lsp = LSPSettings()
        lsp.positionEncoding = self.lsp.positionEncoding
        lsp.hoverFormat = self.lsp.hoverFormat
        lsp.pendingNotices = self.lsp.pendingNotices
        lsp.apply(load.editorDefaults)
        for options in clientOptions {
            settings.apply(options)
            lsp.apply(options)
        }
        self.settings = settings
        self.lsp = lsp
        service = nil
        logger.info("SIGHUP: configuration read again")
        showProblems(load.notices)
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
