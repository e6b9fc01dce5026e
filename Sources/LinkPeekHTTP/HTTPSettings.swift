import LinkPeek
import Options

/// What `serve --http` was asked for: where to listen, who may ask, and the
/// bounds that keep an exposed service from growing memory or being held
/// open. The CLI checks each number's range; `BindRule` checks the address
/// against the tokens.
public struct HTTPSettings: Sendable {
    public var host: String
    public var port: Int
    /// Bearer tokens that may ask; nil lets anyone (loopback, or `--http-no-auth`).
    public var tokens: TokenSet?
    /// Requests per second per client (its token, else its address); the burst is the same number.
    public var clientRate: Int = 50
    /// Bytes a `url` parameter may have.
    public var maxURLBytes: Int = 4096
    /// Requests that do work (a fetch, an image) at once; more wait in the queue.
    public var maxConcurrent: Int = 64
    /// Requests that may wait for a slot; past it the answer is 503.
    public var maxQueue: Int = 256
    /// Seconds a client has to send a request's head, and then its body.
    public var headerTimeout: Double = 10
    public var bodyTimeout: Double = 10
    /// Seconds `SIGTERM` gives requests in flight before they are cut.
    public var drainTimeout: Double = 30
    /// Access log lines carry the URL's query too (else only its host).
    public var logsQuery = false
    /// One access log line per request (at `info`, whatever `--log-level` says).
    public var accessLog = true
    /// A non-loopback address was allowed without tokens (`--http-no-auth`).
    public var noAuth = false

    public init(host: String = "127.0.0.1", port: Int, tokens: TokenSet? = nil) {
        self.host = host
        self.port = port
        self.tokens = tokens
    }
}

/// Where `serve --http` may listen: loopback always; any other address only
/// with tokens or an explicit "no auth", since a preview service is an open
/// proxy by nature.
public enum BindRule {
    /// nil when `host` may be bound with these choices, else the sentence that refuses it.
    public static func problem(host: String, hasTokens: Bool, noAuth: Bool) -> String? {
        if isLoopback(host) || hasTokens || noAuth { return nil }
        return "--http \(host) is not a loopback address: give --http-token-file (bearer tokens) or --http-no-auth"
            + " (http.tokenFile or http.noAuth in [http])"
    }

    /// 127.0.0.0/8, ::1 and `localhost`.
    public static func isLoopback(_ host: String) -> Bool {
        let lowered = host.lowercased()
        if lowered == "localhost" || lowered == "::1" || lowered == "[::1]" { return true }
        let parts = lowered.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ $0.count <= 3 && UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }

    /// `ADDRESS:PORT` (`[v6]:PORT` for IPv6), or `PORT` alone on 127.0.0.1 (`ListenAddress`).
    public static func parse(_ text: String) -> Result<(host: String, port: Int), BindProblem> {
        guard let address = ListenAddress.parse(text) else { return .failure(BindProblem(text)) }
        return .success(address)
    }
}

public struct BindProblem: Error, Sendable {
    public let message: String
    init(_ text: String) {
        message = "--http must be ADDRESS:PORT (a port from 0 to 65535, [ADDRESS]:PORT for IPv6), not \"\(text)\""
    }
}
