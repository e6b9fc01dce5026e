/// Why a fetch did not produce metadata. Every error has a plain sentence
/// (`message`); failures also name a `reason`, and HTTP failures the status.
public struct FetchError: Error, Sendable, Equatable {
    public var kind: Kind
    public var reason: Reason?
    /// The HTTP status, for `reason == .httpStatus`.
    public var status: Int?
    /// The plain sentence shown to a person.
    public var message: String
    /// True when this failure was served from the failure cache, not just met.
    public var fromCache: Bool
    /// True when a cached failure is served past its lifetime (`getCached`).
    public var stale: Bool
    /// For `reason == .blocked`: which wall the site showed instead of the page.
    public var wall: Wall?
    /// Seconds until the host may be asked again, for `reason == .rateLimited`.
    public var retryAfter: Int?

    public init(
        kind: Kind, reason: Reason? = nil, status: Int? = nil, message: String, fromCache: Bool = false,
        stale: Bool = false, wall: Wall? = nil
    ) {
        self.kind = kind
        self.reason = reason
        self.status = status
        self.message = message
        self.fromCache = fromCache
        self.stale = stale
        self.wall = wall
    }

    /// The families of errors (LinkPresentation's error codes, plus provider reuse).
    public enum Kind: String, Sendable, Codable {
        case cancelled, timedOut, failed, providerReused, unknown
    }

    /// Why a fetch failed. An open set: new reasons can be added without
    /// breaking clients, which must treat an unknown reason as plain `failed`.
    public struct Reason: RawRepresentable, Hashable, Sendable, Codable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let invalidURL = Reason(rawValue: "invalidURL")
        public static let unsupportedScheme = Reason(rawValue: "unsupportedScheme")
        public static let blockedAddress = Reason(rawValue: "blockedAddress")
        public static let dns = Reason(rawValue: "dns")
        public static let connect = Reason(rawValue: "connect")
        public static let tls = Reason(rawValue: "tls")
        public static let httpStatus = Reason(rawValue: "httpStatus")
        public static let tooManyRedirects = Reason(rawValue: "tooManyRedirects")
        public static let unsupportedContentType = Reason(rawValue: "unsupportedContentType")
        public static let emptyBody = Reason(rawValue: "emptyBody")
        public static let network = Reason(rawValue: "network")
        public static let notCached = Reason(rawValue: "notCached")
        /// A `[[site]]` rule says `fetch = "never"` for the URL.
        public static let fetchRefused = Reason(rawValue: "fetchRefused")
        /// The image's declared pixel size (or its byte size) is above the cap.
        public static let imageTooLarge = Reason(rawValue: "imageTooLarge")
        /// The bytes are not an image linkpeek transforms (HTML, garbage, an
        /// SVG with entities), whatever the `Content-Type` said.
        public static let unsupportedImage = Reason(rawValue: "unsupportedImage")
        /// The image claimed a known format but could not be decoded (truncated, corrupt).
        public static let decodeFailed = Reason(rawValue: "decodeFailed")
        /// Replaying (`--replay`): the URL is not on the tape.
        public static let notRecorded = Reason(rawValue: "notRecorded")
        /// The site showed a wall (`FetchError.wall`: a bot check, a consent or a sign-in page).
        public static let blocked = Reason(rawValue: "blocked")
    }
}

extension FetchError {
    public static let cancelled = FetchError(kind: .cancelled, message: "Metadata fetch cancelled.")
    public static let timedOut = FetchError(kind: .timedOut, message: "Metadata fetch timed out.")
    public static let providerReused = FetchError(
        kind: .providerReused, message: "Provider is one-shot and has already started.")

    public static func failed(_ reason: Reason, _ detail: String, status: Int? = nil) -> FetchError {
        FetchError(kind: .failed, reason: reason, status: status, message: "Metadata fetch failed: \(detail)")
    }

    /// A failure of `getMedia`, `linkpeek image` or a thumbnail.
    public static func image(_ reason: Reason, _ detail: String, status: Int? = nil) -> FetchError {
        FetchError(kind: .failed, reason: reason, status: status, message: "Image fetch failed: \(detail)")
    }

    /// The site showed `wall` instead of the page (and no oEmbed answer stood in for it).
    public static func blocked(_ wall: Wall) -> FetchError {
        FetchError(kind: .failed, reason: .blocked, message: "Metadata fetch failed: \(wall.sentence)", wall: wall)
    }

    public static func unknown(_ detail: String) -> FetchError {
        FetchError(kind: .unknown, message: "Metadata fetch failed for an unknown reason: \(detail)")
    }
}
