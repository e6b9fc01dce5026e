import LinkPeekProtocol

/// `[http]`: the address and bounds of `serve --http`, the HTTP front.
/// Each has its `--http-…` flag; the front reads them when it starts and
/// again on `SIGHUP` (all but `http.listen` and `http.drainTimeout`, which
/// need a restart).
extension OptionKey {
    static var httpKeys: [OptionKey] {
        [
            .string("http.listen", \.httpListen, flag: "--http", default: "(none)",
                "ADDRESS:PORT of the HTTP front; `serve --http-from-config` serves it (a restart takes a new one).",
                check: { ListenAddress.parse($0) == nil ? ListenAddress.allowed : nil }),
            .string("http.tokenFile", \.httpTokenFile, flag: "--http-token-file", default: "(none)",
                "Bearer tokens that may ask the HTTP front, one a line; read again on SIGHUP.",
                check: { $0.isEmpty ? "must not be empty" : nil }),
            .bool("http.noAuth", \.httpNoAuth, flag: "--http-no-auth", default: "false",
                "Let a non-loopback http.listen serve without tokens."),
            .number("http.clientRate", \.httpClientRate, HTTPRanges.clientRate, flag: "--http-client-rate",
                default: "50", "Requests per second per client (token, else address); more get 429."),
            .number("http.maxConcurrent", \.httpMaxConcurrent, ParamRanges.maxConcurrency,
                flag: "--http-max-concurrent", default: "64", "Requests that fetch or transform at once."),
            .number("http.maxQueue", \.httpMaxQueue, HTTPRanges.queue, flag: "--http-max-queue", default: "256",
                "Requests that may wait for a slot; past it 503."),
            .number("http.requestTimeout", \.httpRequestTimeout, HTTPRanges.requestTimeout,
                flag: "--http-request-timeout", default: "10",
                "Seconds a client has to send a request's head, and again its body."),
            .number("http.drainTimeout", \.httpDrainTimeout, HTTPRanges.drainTimeout, flag: "--http-drain-timeout",
                default: "30", "Seconds SIGTERM gives requests in flight (a restart takes a new one)."),
            .bool("http.logQuery", \.httpLogQuery, flag: "--http-log-query", default: "false",
                "Access log lines carry the URL's query too."),
            .bool("http.accessLog", \.httpAccessLog, flag: "--no-http-access-log", default: "true",
                "One access log line per request."),
        ]
    }
}

/// The ranges of the `[http]` numbers, shared by the flags and the file.
public enum HTTPRanges {
    public static let clientRate = NumberRange(1...100_000, integral: true)
    public static let queue = NumberRange(0...100_000, integral: true)
    public static let requestTimeout = NumberRange(0.1...600, unit: "seconds")
    public static let drainTimeout = NumberRange(0...3600, unit: "seconds")
}

/// `ADDRESS:PORT` (`[v6]:PORT` for IPv6), or `PORT` alone on 127.0.0.1:
/// where the HTTP front listens.
public enum ListenAddress {
    static let allowed = "must be ADDRESS:PORT (a port from 0 to 65535, [ADDRESS]:PORT for IPv6)"

    public static func parse(_ text: String) -> (host: String, port: Int)? {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return nil }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(":") || text.hasPrefix("["),
            portText.count <= 5, let port = Int(portText), (0...65535).contains(port)
        else { return nil }
        return (host, port)
    }
}
