import Logging
import TextTrimming

/// One HTTP GET (or, with a `body`, a POST), described in plain values so
/// it can cross to the curl thread.
public struct TransferRequest: Sendable {
    public var url: String
    public var userAgent: String
    /// Seconds for the whole transfer, counted from when it was queued.
    public var timeout: Double
    public var connectTimeout: Double
    public var maxRedirects: Int
    public var policy: AddressPolicy
    /// Body bytes delivered at most (after decompression); past it the
    /// transfer stops and the result is marked `truncated`.
    public var maxBytes: Int
    /// Extra request headers, e.g. `If-None-Match: "abc"`.
    public var headers: [String]
    /// The bytes to POST and their media type; nil for a GET. A request
    /// with a body follows no redirect: a 3xx is its answer.
    public var body: RequestBody?
    /// `CURLOPT_RESOLVE` entries (`NameOverride.curlEntry`), for this
    /// transfer and every redirect it follows.
    public var nameOverrides: [String] = []
    /// CA certificates to trust instead of curl's default store (`CURLOPT_CAINFO`).
    public var caFile: String?
    /// A directory of hashed CA certificates (`CURLOPT_CAPATH`).
    public var caPath: String?
    /// Proxies by scheme and the hosts that bypass them. When any proxy is
    /// set, the engine follows redirects itself, checking each hop (`HopCheck`).
    public var proxies = ProxyTable()
    /// Settings per hop by the hop's own URL; with one, the engine follows
    /// redirects itself and asks it for each hop (`HopRule`).
    public var hopRule: HopRule?
    /// Where the transfer logs its decisions (an address refused, why it stopped).
    public var logger = TransferRequest.defaultLogger

    public init(
        url: String,
        userAgent: String,
        timeout: Double = 30,
        connectTimeout: Double = 10,
        maxRedirects: Int = 10,
        policy: AddressPolicy = AddressPolicy(),
        maxBytes: Int = 2 * 1024 * 1024,
        headers: [String] = []
    ) {
        self.url = url
        self.userAgent = userAgent
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxRedirects = maxRedirects
        self.policy = policy
        self.maxBytes = maxBytes
        self.headers = headers
    }
}

/// A POST's body.
public struct RequestBody: Sendable, Equatable {
    public var bytes: [UInt8]
    /// `Content-Type`, e.g. `application/json`.
    public var contentType: String

    public init(bytes: [UInt8], contentType: String) {
        self.bytes = bytes
        self.contentType = contentType
    }
}

extension TransferRequest {
    /// "GET", or "POST" with a body.
    public var method: String { body == nil ? "GET" : "POST" }

    /// Made once, on first use (after the application bootstrapped its
    /// logging), not for every request.
    public static let defaultLogger = Logger(label: "linkpeek.curl")

    /// Seconds as whole milliseconds for curl and the deadline, within
    /// [1 ms, 1 day]: callers of this library may pass any `Double`, and
    /// `Int64(1e20 * 1000)` or `Int(Double.nan)` would trap.
    static func milliseconds(_ seconds: Double) -> Int {
        guard !seconds.isNaN else { return 1 }
        let clamped = min(max(seconds * 1000, 1), maximumMilliseconds)
        // Safe: clamped to [1, 86_400_000], a whole number after rounding.
        return Int(clamped.rounded(.up))
    }

    static let maximumMilliseconds: Double = 86_400_000
}

/// The status line and headers of the response that carries the body (the
/// last one, after redirects).
public struct ResponseHead: Sendable, Equatable {
    public var status: Int
    /// The URL that gave this response.
    public var url: String
    /// Header fields with lowercased names; a repeated field keeps the last value.
    public var fields: [String: String]

    public init(status: Int, url: String, fields: [String: String] = [:]) {
        self.status = status
        self.url = url
        self.fields = fields
    }

    public subscript(field: String) -> String? { fields[field.lowercased()] }

    /// The media type of `Content-Type` without parameters, lowercased.
    public var mediaType: String? {
        guard let value = self["content-type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        let trimmed = type.trimmedSpaces.lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// One redirect: the URL that answered with a redirect, and its status.
public struct Hop: Sendable, Equatable {
    public var url: String
    public var status: Int

    public init(url: String, status: Int) {
        self.url = url
        self.status = status
    }
}

/// What a finished transfer reports, besides what its consumer made of the bytes.
public struct TransferResult<Output: Sendable>: Sendable {
    /// The final response's head; nil only if the server sent none.
    public var head: ResponseHead?
    public var output: Output
    public var redirects: [Hop]
    /// Body bytes delivered to the consumer (after decompression).
    public var bytesRead: Int
    /// True when `maxBytes` stopped the transfer.
    public var truncated: Bool
    /// True when the consumer stopped the transfer early (it had what it needed).
    public var stoppedEarly: Bool

    /// A result made elsewhere (a replayed recording).
    public init(
        head: ResponseHead?, output: Output, redirects: [Hop], bytesRead: Int, truncated: Bool, stoppedEarly: Bool
    ) {
        self.head = head
        self.output = output
        self.redirects = redirects
        self.bytesRead = bytesRead
        self.truncated = truncated
        self.stoppedEarly = stoppedEarly
    }
}

/// Whether the transfer should go on.
public enum TransferDecision: Sendable {
    /// Read on.
    case proceed
    /// End the transfer now, with what was read.
    case stop
    /// Read on, but what follows is optional: the consumer has what it
    /// needs. The first `settle` starts a clock; a transfer still running
    /// `Transfer.settleMilliseconds` later ends as if the consumer had said
    /// `stop` (a slow or stalled rest of a response cannot hold a result
    /// that is already there until the timeout).
    case settle
}

/// Receives a transfer's bytes as they arrive.
///
/// - Important: every method is called on one of the engine's curl threads
///   only, one call at a time. The consumer is handed over to the thread of
///   the loop that runs the transfer (or ends it while queued), and
///   `finish()` is its last call.
public protocol TransferConsumer: AnyObject {
    associatedtype Output: Sendable

    /// About to connect to the server (DNS is done).
    func connecting()
    /// The request is sent (on a new connection or a kept-alive one); the
    /// server's answer has not started yet.
    func requestSent()
    /// The final response's headers arrived; `.stop` ends the transfer
    /// before any body is read.
    func responseStarted(_ head: ResponseHead) -> TransferDecision
    /// More body bytes (decompressed); `.stop` ends the transfer.
    func received(_ bytes: UnsafeRawBufferPointer) -> TransferDecision
    /// The transfer ended (for whatever reason); produce the result.
    func finish() -> Output
}

extension TransferConsumer {
    public func connecting() {}
    public func requestSent() {}
}
