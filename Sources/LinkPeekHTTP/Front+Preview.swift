import Hummingbird
import HummingbirdCore
import LinkPeek
import LinkPeekProtocol

extension Front {
    /// `GET /v1/preview?url=…`: `fetch`'s `LinkMetadata` JSON. A fresh
    /// cached preview is sent as the stored bytes (no decoding, no
    /// encoding, no queue); anything else is a fetch inside the gate.
    nonisolated(nonsending) func preview(_ query: Query, request: Request) async -> Response {
        let options: FetchOptions
        let url: String
        switch PreviewParams.parse(query, maxURLBytes: settings.maxURLBytes) {
        case .failure(let refusal): return refusal.response
        case .success(let params): (url, options) = params
        }
        let trace = CacheTrace()
        let pending: PreviewRequest
        switch await CacheTrace.$current.withValue(trace, operation: { await engine.lookUp(url: url, options: options) }) {
        case .fresh(let json): return previewResponse(json, label: XCache(trace), request: request)
        case .miss(let miss): pending = miss
        }
        let outcome: Result<[UInt8], FetchError>? = await gate.run {
            await CacheTrace.$current.withValue(trace) {
                await Self.fetchJSON(engine: engine, pending)
            }
        }
        switch outcome {
        case nil:
            return Reply.overloaded
        case .failure(let error)?:
            return Reply.failure(error)
        case .success(let json)?:
            return previewResponse(json, label: XCache(trace), request: request)
        }
    }

    /// One fetch as JSON. (Kept out of the closure, as the daemon's `runFetch` is.)
    static func fetchJSON(engine: LinkPeekEngine, _ pending: PreviewRequest) async -> Result<[UInt8], FetchError> {
        do {
            let fetched = try await engine.fetch(pending)
            do { return .success(try fetched.json()) } catch {
                return .failure(.unknown("the preview could not be encoded: \(error)"))
            }
        } catch {
            return .failure(error)
        }
    }

    /// 200 with the preview, `ETag` (of these bytes), `Cache-Control` from
    /// its `expiresAt` and `X-Cache`; 304 when `If-None-Match` names the ETag.
    /// The body, its `ETag` and its expiry are worked out once per body (`ReadyBodies`).
    func previewResponse(_ json: [UInt8], label: XCache, request: Request) -> Response {
        previewResponse(bodies.ready(json), label: label, requestHeaders: request.headers)
    }

    /// The same for a body made ready, and the request's header fields.
    func previewResponse(_ ready: ReadyBodies.Ready, label: XCache, requestHeaders: HTTPFields) -> Response {
        let notModified = requestHeaders[.ifNoneMatch].map { ETag.matches($0, ready.etag) } ?? false
        return previewResponse(ready, label: label, notModified: notModified)
    }

    /// The same, 304 when `notModified` (the request's `If-None-Match` names the ETag).
    func previewResponse(
        _ ready: ReadyBodies.Ready, label: XCache, notModified: Bool, now: Int64 = PreviewFreshness.currentSeconds()
    ) -> Response {
        var headers: HTTPFields = [
            .eTag: ready.etag, .cacheControl: ready.cacheControl(now: now), Reply.xCache: label.rawValue,
        ]
        if notModified { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ready.buffer))
    }
}

/// `X-Cache`: which level answered — `hit` (memory or disk), `fleet`,
/// `revalidated` (a stale entry renewed by a 304), `joined` (the origin
/// fetch another request in this instance had started for the same page,
/// which this one waited for instead of asking again), or `miss` (its own
/// request to the origin).
enum XCache: String {
    case hit, fleet, revalidated, joined, miss

    init(_ level: CacheCounters.Level?, joined: Bool = false) {
        switch level {
        case .memory?, .disk?: self = .hit
        case .fleet?: self = .fleet
        case .revalidated?: self = .revalidated
        case nil: self = joined ? .joined : .miss
        }
    }

    init(_ trace: CacheTrace) {
        self.init(trace.level, joined: trace.joined)
    }
}

typealias Query = FlatDictionary<Substring, Substring>

/// `/v1/preview`'s parameters: `url` and `fetch`'s options by the same names
/// (`cachePolicy`, `timeout`, `subresources` for `fetchSubresources`,
/// `acceptLanguage`). An unknown parameter is refused, not ignored.
enum PreviewParams {
    static let known: Set<Substring> = ["url", "cachePolicy", "timeout", "subresources", "acceptLanguage"]

    static func parse(_ query: Query, maxURLBytes: Int) -> Result<(String, FetchOptions), Refusal> {
        if let unknown = query.first(where: { !known.contains($0.key) }) {
            return .failure(Refusal(response: Reply.badParameter("unknown parameter \"\(unknown.key)\"")))
        }
        switch url(query, maxURLBytes: maxURLBytes) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let url):
            var options = FetchOptions(reportsPartialResults: false)
            if let policy = query["cachePolicy"] {
                guard let parsed = CachePolicy(rawValue: String(policy)) else {
                    return .failure(Refusal(response: Reply.badParameter(
                        "cachePolicy must be one of " + CachePolicy.allCases.map(\.rawValue).joined(separator: ", "))))
                }
                options.cachePolicy = parsed
            }
            if let text = query["timeout"] {
                guard let seconds = Double(text) else { return .failure(Refusal(response: Reply.badParameter("timeout must be a number"))) }
                if let problem = ParamRanges.timeout.check(seconds, field: "timeout") {
                    return .failure(Refusal(response: Reply.badParameter(problem)))
                }
                options.timeout = seconds
            }
            if let text = query["subresources"] {
                guard let flag = Bool(String(text)) else {
                    return .failure(Refusal(response: Reply.badParameter("subresources must be true or false")))
                }
                options.fetchSubresources = flag
            }
            if let language = query["acceptLanguage"].map(String.init) {
                if let problem = ParamRanges.checkHeaderValue(language, field: "acceptLanguage") {
                    return .failure(Refusal(response: Reply.badParameter(problem)))
                }
                options.acceptLanguage = language
            }
            return .success((url, options))
        }
    }

    /// The `url` parameter: present, not empty, within the length bound (414 past it).
    static func url(_ query: Query, maxURLBytes: Int) -> Result<String, Refusal> {
        guard let url = query["url"], !url.isEmpty else { return .failure(Refusal(response: Reply.badParameter("url is required"))) }
        guard url.utf8.count <= maxURLBytes else {
            return .failure(Refusal(response: Reply.problem(.uriTooLong, reason: "urlTooLong", "url must be at most \(maxURLBytes) bytes.")))
        }
        return .success(String(url))
    }
}
