/// What a preview card shows — LinkPresentation's `LPLinkView`, as data. One
/// model for every rendering (Markdown for editor hovers, HTML for web
/// pages, text for terminals), so the three always agree on what is shown.
///
/// Every text here is as the page gave it (cleaned of control characters
/// and runs of white space, but not escaped): escaping belongs to each
/// renderer, since what is dangerous differs per format. URLs are kept only
/// when they are http or https, so no renderer can ever emit a
/// `javascript:` link. The image is never a URL: only a thumbnail linkpeek
/// made itself (`CardImage`), attached by whoever renders the card.
public struct LinkCard: Sendable, Equatable {
    /// The URL the card is about (as asked, without `user:password@`: no
    /// card ever shows credentials).
    public var originalURL: String
    /// The page title, or nil (renderers then show the host).
    public var title: String?
    /// Where the title links to: the final URL when safe, else the original.
    public var link: String?
    public var siteName: String?
    public var host: String?
    /// Trimmed at a word boundary to about `summaryLimit` characters.
    public var summary: String?
    /// The thumbnail of the page's verified image, as a `data:` URI (see
    /// `CardImage`); nil until the caller attaches one.
    public var image: CardImage?
    /// The image's alt text, shown with `image`.
    public var imageAlt: String?
    /// The final URL, only when it differs from the original.
    public var finalURL: String?
    /// What a site engine read, in one line (`SiteFacts`): "merged · #4123 · 12 comments".
    public var facts: String?
    /// A short line on the state of the card: "loading…", or why the fetch failed.
    public var status: String?

    /// Characters of summary shown at most (then cut at a word boundary, with "…").
    public static let summaryLimit = 300
    public static let loadingStatus = "loading…"

    public init(originalURL: String) {
        self.originalURL = CardText.withoutUserinfo(originalURL)
        host = CardText.host(of: originalURL)
        link = CardText.safeURL(originalURL)
    }

    /// The card of a fetched (or partly fetched) preview.
    public init(metadata: LinkMetadata) {
        self.init(originalURL: metadata.originalURL)
        title = CardText.clean(metadata.title)
        siteName = CardText.clean(metadata.siteName)
        summary = CardText.clean(metadata.summary).map { CardText.trimmed($0, limit: Self.summaryLimit) }
        imageAlt = CardText.clean(metadata.image?.alt)
        facts = metadata.site.flatMap(SiteFacts.line)
        if let final = metadata.url, final != metadata.originalURL, let safe = CardText.safeURL(final) {
            finalURL = safe
            link = safe
            host = CardText.host(of: safe) ?? host
        }
    }

    /// The card of a fetch that failed: the host, and why.
    public init(originalURL: String, failure: FetchError) {
        self.init(originalURL: originalURL)
        status = Self.reasonLine(failure)
    }

    /// The card of a fetch still running: what is known so far (the title
    /// first), the host, and "loading…".
    public static func loading(originalURL: String, partial: LinkMetadata?) -> LinkCard {
        var card = partial.map(LinkCard.init(metadata:)) ?? LinkCard(originalURL: originalURL)
        card.status = loadingStatus
        return card
    }

    /// "Site name · host" (the host alone when the site name is the host),
    /// or nil when there is neither, or when the heading already shows the host.
    public var siteLine: String? {
        if title == nil && siteName == nil { return nil }
        switch (siteName, host) {
        case (let site?, let host?) where site.lowercased() != host: return "\(site) · \(host)"
        case (_, let host?): return host
        case (let site?, nil): return site
        case (nil, nil): return nil
        }
    }

    /// A few words on why a fetch failed, e.g. "blocked: private address",
    /// "timed out", "HTTP 404".
    public static func reasonLine(_ error: FetchError) -> String {
        switch error.kind {
        case .timedOut: return "timed out"
        case .cancelled: return "cancelled"
        case .providerReused, .unknown: return "failed"
        case .failed: break
        }
        switch error.reason {
        case .blockedAddress?: return "blocked: private address (set allowPrivateNetwork to allow)"
        case .blocked?: return error.wall.map { "blocked: \($0.cardPhrase)" } ?? "blocked"
        case .httpStatus?: return error.status.map { "HTTP \($0)" } ?? "HTTP error"
        case .dns?: return "host not found"
        case .connect?: return "could not connect"
        case .tls?: return "TLS error"
        case .tooManyRedirects?: return "too many redirects"
        case .unsupportedContentType?: return "not a web page"
        case .emptyBody?: return "empty page"
        case .invalidURL?: return "invalid URL"
        case .unsupportedScheme?: return "unsupported scheme"
        case .notCached?: return "not cached"
        case .rateLimited?: return error.retryAfter.map { "rate limited: retry in \($0) s" } ?? "rate limited"
        default: return "failed"
        }
    }
}
