import Curl
import FoundationEssentials
import Logging
import Options
import SiteEngines

/// Site engines in the load path: a link an engine knows (a GitHub pull
/// request, a Stack Overflow question, a Wikipedia article) is previewed
/// from the site's API, through the same transfer path as a page (address
/// policy, proxies, CAs, `--resolve`, record and replay, the fleet's rate,
/// the per-host limits), so the cache keeps and revalidates it like a page.
/// Follow-ups (a repository's latest release…) go the same way, each
/// leaving only its own facts out when it fails.
/// Anything but a usable answer — an error status, a timeout, a redirect,
/// garbage, an answer over `siteMaximumBytes`, an API held for its rate
/// limit — leaves the link to the page, and the preview says nothing of it.
///
/// A token (`GITHUB_TOKEN`) goes only over https to the API's own host;
/// redirects are never followed, so it cannot go anywhere else. It is never
/// logged, never part of a tape (tapes keep response headers only) and
/// never part of a cache key (the key is the link's).
extension LinkPeekEngine {
    /// The preview from the API of the engine that knows `url`, or nil to read the page.
    /// `headers`: the page request's `Accept-Language` and validators.
    func siteAnswer(url: String, deadline: ContinuousClock.Instant, headers: [String]) async -> PreviewLoad? {
        guard settings.sites else { return nil }
        // A `[[site]]` rule for the link's own URL may turn the engines off for it.
        if let (_, rule) = settings.siteRules.firstMatch(url: url), rule.sites == false { return nil }
        let engines = SiteEngines.all(gitlabHosts: settings.gitlabHosts).filter { !settings.sitesOff.contains($0.name) }
        guard let (engine, request) = SiteEngines.request(for: url, engines: engines) else { return nil }
        // An API that answers only with a token (GitHub's GraphQL) is not asked without one.
        if request.requiresToken, Self.siteToken(for: request, rules: settings.siteRules) == nil { return nil }
        // One budget for the first request and its follow-ups.
        let budget = min(Self.siteMaximumSeconds, Self.seconds(until: deadline) / 2)
        let siteDeadline = ContinuousClock.now + .milliseconds(Int64(max(budget, 0) * 1000))
        let head: ResponseHead
        let bytes: [UInt8]
        switch await siteCall(request, engine: engine, link: url, deadline: siteDeadline, headers: headers) {
        case .answer(let answerHead, let answerBytes): (head, bytes) = (answerHead, answerBytes)
        case .notModified(let fields): return PreviewLoad(page: .notModified(fields: fields))
        case .none: return nil
        }
        guard var reading = engine.read(bytes: bytes, for: request, pageURL: url) else {
            holdForErrorAnswer(bytes, of: request, engine: engine, link: url)
            logSiteFallback(url, engine, "the answer is not the API's")
            return nil
        }
        if let seconds = reading.holdSeconds, let apiHost = HostBackoff.key(for: request.url) {
            backoff.hold(apiHost, seconds: seconds)
        }
        let language = headers.filter { $0.lowercased().hasPrefix("accept-language:") }
        for followUp in engine.followUps(after: reading, for: request) {
            if case .answer(_, let more) = await siteCall(
                followUp, engine: engine, link: url, deadline: siteDeadline, headers: language, followUp: true) {
                engine.add(more, of: followUp, to: &reading)
            }
        }
        // A fetch cancelled during the follow-ups gets no answer, not part of one.
        guard !Task.isCancelled else { return nil }
        var sources: [String: String] = [:]
        let from = "\(engine.name) API"
        let metadata = reading.metadata
        for (field, present) in [
            ("title", metadata.title != nil), ("summary", metadata.summary != nil), ("author", metadata.author != nil),
            ("publishedTime", metadata.publishedTime != nil), ("image", metadata.image != nil),
            ("siteName", metadata.siteName != nil), ("lang", metadata.lang != nil),
        ] where present { sources[field] = from }
        if let fallback = URLResolver(pageURL: url, baseHref: nil).faviconFallback() {
            reading.metadata.icon = MediaResource(url: fallback, isUnverifiedFallback: true)
            sources["icon"] = "favicon.ico fallback"
        }
        reading.metadata.sources = sources
        reading.metadata.richness = Richness(of: reading.metadata)
        return PreviewLoad(page: .page(reading.metadata, fields: head.fields))
    }

    /// What one API request gave: a usable answer, the cached one confirmed (304), or nothing.
    enum SiteCall {
        case answer(ResponseHead, [UInt8])
        case notModified([String: String])
        case none
    }

    /// One API request (the first or a follow-up), each under the same
    /// rules: not while its host is held for a rate limit, nor when a
    /// `[[site]]` rule says not to fetch its URL; the token only where it
    /// may go; no redirect; by `deadline`; an answer over the request's
    /// (else `siteMaximumBytes`) limit, an error status or a hold is none.
    private func siteCall(
        _ request: SiteRequest, engine: any SiteEngine, link url: String, deadline: ContinuousClock.Instant,
        headers: [String], followUp: Bool = false
    ) async -> SiteCall {
        guard let apiHost = HostBackoff.key(for: request.url) else { return .none }
        if let seconds = backoff.remaining(apiHost) {
            logger.debug("site API not asked: held for its rate limit", metadata: [
                "url": "\(url)", "api": "\(request.url)", "engine": "\(engine.name)", "seconds left": "\(seconds)",
            ])
            return .none
        }
        if let (mode, line) = siteFetchRule(request.url), mode != .always {
            logSiteFallback(url, engine, "the [[site]] rule at line \(line) says not to fetch \(request.url)", followUp: followUp)
            return .none
        }
        let timeout = Self.seconds(until: deadline)
        guard timeout >= Self.minimumTimeout, !Task.isCancelled else { return .none }
        let token = Self.siteToken(for: request, rules: settings.siteRules)
        var lines = request.headers + headers
        if let token { lines.append("Authorization: Bearer \(token.value)") }
        let maximumBytes = request.maximumBytes ?? Self.siteMaximumBytes
        var transfer = transferRequest(url: request.url, timeout: timeout, maxBytes: maximumBytes + 1, headers: lines)
        transfer.maxRedirects = 0
        transfer.body = request.body.map { RequestBody(bytes: $0, contentType: "application/json") }
        let result: TransferResult<OEmbedConsumer.Output>
        do { result = try await perform(transfer, consumer: OEmbedConsumer(maximumBytes: maximumBytes, readsErrors: true)) } catch {
            logSiteFallback(url, engine, "\(request.url): the request failed: \(error.message)", followUp: followUp)
            return .none
        }
        guard let head = result.head else { return .none }
        if head.status == 304 { return .notModified(head.fields) }
        if let seconds = engine.hold(status: head.status, field: { head[$0] }, now: Date().timeIntervalSince1970) {
            backoff.hold(apiHost, seconds: seconds)
            logger.info("site API held for its rate limit", metadata: [
                "url": "\(url)", "engine": "\(engine.name)", "status": "\(head.status)", "seconds": "\(seconds)",
            ])
            return .none
        }
        if head.status == 401, let token {
            logger.warning("\(request.tokenHost ?? apiHost) refused the token in \(token.variable); \(engine.name) links are previewed from their pages.")
            return .none
        }
        if !(200..<300).contains(head.status), !result.output.oversized, !result.truncated {
            holdForErrorAnswer(result.output.bytes, of: request, engine: engine, link: url)
        }
        guard (200..<300).contains(head.status), !result.output.oversized, !result.truncated else {
            let reason = result.output.oversized || result.truncated ? "the answer is too large" : "status \(head.status)"
            logSiteFallback(url, engine, "\(request.url): \(reason)", followUp: followUp)
            return .none
        }
        return .answer(head, result.output.bytes)
    }

    /// Holds the API's host for as long as an error answer's body asks (Stack Exchange's throttle).
    private func holdForErrorAnswer(_ bytes: [UInt8], of request: SiteRequest, engine: any SiteEngine, link url: String) {
        guard let seconds = engine.hold(errorAnswer: bytes), let apiHost = HostBackoff.key(for: request.url) else { return }
        backoff.hold(apiHost, seconds: seconds)
        logger.info("site API held for its rate limit", metadata: [
            "url": "\(url)", "engine": "\(engine.name)", "seconds": "\(seconds)",
        ])
    }

    private func logSiteFallback(_ url: String, _ engine: any SiteEngine, _ reason: String, followUp: Bool = false) {
        logger.info(followUp ? "site API follow-up not used; its facts are left out" : "site API not used; the page is read", metadata: [
            "url": "\(url)", "engine": "\(engine.name)", "reason": "\(reason)",
        ])
    }

    /// The token for `request` when it may go: over https, to the API host
    /// the engine names. The `token` of the `[[site]]` rule that matches the
    /// API's own URL (the hop's host, as every rule) comes first, else the
    /// environment's `<ENGINE>_TOKEN`. `variable` names where it came from.
    static func siteToken(for request: SiteRequest, rules: [SiteRule] = []) -> (value: String, variable: String)? {
        guard let name = request.token, let host = request.tokenHost,
            request.url.hasPrefix("https://\(host)/")
        else { return nil }
        let usable = { (value: String) in !value.isEmpty && value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } }
        if let (_, rule) = rules.firstMatch(url: request.url), let value = rule.token, usable(value) {
            return (value, "the configuration file's [[site]] rule at line \(rule.line)")
        }
        let variable = "\(name.uppercased())_TOKEN"
        guard let value = ProcessInfo.processInfo.environment[variable], usable(value) else { return nil }
        return (value, variable)
    }

    /// The longest a site API may take, whatever the fetch's timeout.
    static let siteMaximumSeconds = 10.0
    /// An API answer longer than this is not used (a pull request with a long body is ~60 KB).
    static let siteMaximumBytes = 512 * 1024
}
