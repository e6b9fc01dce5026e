import LinkPeek
import LinkPeekProtocol

/// The editor-facing settings of a session (`initializationOptions`
/// `hoverTimeout`, `prefetch`, `hoverImages`, and the negotiated position
/// encoding). The engine's settings stay in `Settings`.
struct LSPSettings: Sendable, Equatable {
    /// Seconds a hover waits for a fetch before answering with what is known.
    var hoverTimeout: Double = 1.5
    var prefetch = false
    var hoverImages = true
    var positionEncoding = PositionEncoding.utf16
    var hoverFormat = HoverFormat.markdown

    /// Checked against `ParamRanges` before this runs.
    mutating func apply(_ options: InitializationOptions) {
        if let value = options.hoverTimeout { hoverTimeout = value }
        if let value = options.prefetch { prefetch = value }
        if let value = options.hoverImages { hoverImages = value }
    }

    var hoverBudget: Duration {
        // Safe: `ParamRanges.hoverTimeout` keeps the value within 0...60.
        .milliseconds(Int64((hoverTimeout * 1000).rounded()))
    }
}

extension Server {
    /// The command line's editor-facing defaults, before any `initialize`.
    func applyEditorDefaults(_ options: InitializationOptions) {
        lsp.apply(options)
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
