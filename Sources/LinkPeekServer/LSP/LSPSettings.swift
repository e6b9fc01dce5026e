import LinkPeek
import LinkPeekProtocol
import Options

/// The editor-facing settings of a session (the preferences `hoverTimeout`,
/// `prefetch`, `hoverImages`, `hover.*`, and the negotiated position
/// encoding and hover format). The engine's settings stay in `Settings`.
struct LSPSettings: Sendable, Equatable {
    /// Seconds a hover waits for a fetch before answering with what is known.
    var hoverTimeout: Double = 1.5
    var prefetch = false
    var hoverImages = true
    var positionEncoding = PositionEncoding.utf16
    var hoverFormat = HoverFormat.markdown
    /// `hover.fetch`, `hover.allow`, `hover.deny` (the other keys unused here).
    var hover = Options()
    /// The configuration's problems, sent once as `window/showMessage` while
    /// `initialize` is answered (logged at start as well).
    var pendingNotices: [String] = []

    /// The merged preferences' editor-facing keys (every layer); a key no
    /// layer sets has its default.
    mutating func apply(_ options: Options) {
        let defaults = LSPSettings()
        hoverTimeout = options.hoverTimeout ?? defaults.hoverTimeout
        prefetch = options.prefetch ?? defaults.prefetch
        hoverImages = options.hoverImages ?? defaults.hoverImages
        hover.hoverFetch = options.hoverFetch
        hover.hoverAllow = options.hoverAllow
        hover.hoverDeny = options.hoverDeny
    }

    var hoverBudget: Duration {
        // Safe: `ParamRanges.hoverTimeout` keeps the value within 0...60.
        .milliseconds(Int64((hoverTimeout * 1000).rounded()))
    }
}

extension Server {
    /// Sends the configuration's problems once, as `window/showMessage`
    /// (type 2, warning), which LSP allows while `initialize` is answered.
    func sendPendingNotices() {
        for notice in lsp.pendingNotices {
            _ = connection.send(.notification(method: "window/showMessage", params: .object(["type": .int(2), "message": .string(notice)])))
        }
        lsp.pendingNotices = []
    }
}

/// Prefetch runs this many fetches at once, at low priority.
enum PrefetchLimits {
    static let concurrent = 2
    /// URLs queued at most per opened document, and in all.
    static let perDocument = 100
    static let queued = 1000
}

/// The markup of hover cards, from the client's
/// `textDocument.hover.contentFormat`: the first kind it lists that the
/// daemon writes; Markdown when it lists none (LSP's default).
enum HoverFormat: String, Sendable, Equatable {
    case markdown
    case plaintext

    static func negotiate(offered: [String]?) -> HoverFormat {
        offered?.lazy.compactMap(HoverFormat.init(rawValue:)).first ?? .markdown
    }

    /// The card as the client asked for it.
    func content(_ card: LinkCard, includeImage: Bool) -> MarkupContent {
        switch self {
        case .markdown: MarkupContent(kind: rawValue, value: MarkdownCard.render(card, includeImage: includeImage))
        case .plaintext: MarkupContent(kind: rawValue, value: TextCard.render(card, style: .hover))
        }
    }
}
