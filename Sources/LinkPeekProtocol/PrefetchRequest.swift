/// `prefetch` (request): warm previews, and with `thumbnail` the image and
/// icon thumbnails, for many URLs at low priority → `PrefetchResult`.
/// Cancellable like `fetch` (`cancel {providerId}` or `$/cancelRequest`);
/// progress on `workDoneToken` counts the URLs done.
public struct PrefetchParams: Codable, Sendable, Equatable {
    public static let method = "prefetch"
    /// URLs in one request at most.
    public static let maximumURLs = 1000

    public var urls: [String]
    public var thumbnail: ThumbnailParams?
    /// Defaults to the request id.
    public var providerId: ProviderID?
    public var workDoneToken: ProgressToken?

    public init(urls: [String], thumbnail: ThumbnailParams? = nil, providerId: ProviderID? = nil, workDoneToken: ProgressToken? = nil) {
        self.urls = urls
        self.thumbnail = thumbnail
        self.providerId = providerId
        self.workDoneToken = workDoneToken
    }

    public func validationError() -> String? {
        if urls.isEmpty || urls.count > Self.maximumURLs { return "urls must hold 1 to \(Self.maximumURLs) URLs" }
        return thumbnail?.validationError()
    }
}

/// The `prefetch` result.
public struct PrefetchResult: Codable, Sendable, Equatable {
    public var total: Int
    public var succeeded: Int
    public var failed: Int
    /// Each failed URL with its error (`kind`, `reason`, `message` as in error `data`).
    public var failures: [PrefetchFailure]

    public init(total: Int, succeeded: Int, failed: Int, failures: [PrefetchFailure]) {
        self.total = total
        self.succeeded = succeeded
        self.failed = failed
        self.failures = failures
    }
}

public struct PrefetchFailure: Codable, Sendable, Equatable {
    public var url: String
    public var kind: String
    public var reason: String?
    public var message: String
    /// Seconds until the host may be asked again (`reason: "rateLimited"`).
    public var retryAfter: Int?

    public init(url: String, kind: String, reason: String?, message: String, retryAfter: Int? = nil) {
        self.retryAfter = retryAfter
        self.url = url
        self.kind = kind
        self.reason = reason
        self.message = message
    }
}
