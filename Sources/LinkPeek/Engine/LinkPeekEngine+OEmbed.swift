import Curl
import Logging

/// oEmbed and walls in the load path: a URL the bundled provider list
/// knows is previewed from its endpoint without the page (when the answer
/// has a title; else the page is read too, and wins where it declares); a
/// page that names an endpoint and leaves fields open gets them filled; a
/// wall is replaced by an oEmbed answer when there is one, else it is a
/// `blocked` failure. An oEmbed request that fails, stalls or answers
/// nonsense never fails the preview: the page (or, for a wall, the
/// failure) stands.
extension LinkPeekEngine {
    /// The page source: the provider list's oEmbed answer, then `loadPage`
    /// with oEmbed filling and wall handling (see the type's comment).
    func pageWithOEmbed(_ load: SourceLoad) async throws(FetchError) -> PreviewLoad {
        let (url, deadline, headers) = (load.url, load.deadline, load.headers)
        let language = headers.filter { $0.lowercased().hasPrefix("accept-language:") }
        let listed = settings.oembed ? OEmbedProvider.request(for: url) : nil
        // An answer without a title (X's, for one: its text is only in the
        // embed's `html`) fills a page rather than standing in for it.
        var listedAnswer: OEmbedResponse?
        if let listed, let answer = await oEmbed(listed, deadline: deadline, headers: language) {
            guard answer.title == nil else { return .answer(answer, url: url) }
            listedAnswer = answer
        }
        let page: PageLoad
        do {
            page = try await loadPage(
                url: url, timeout: Self.clampedTimeout(Self.seconds(until: deadline)), partials: load.partials,
                headers: headers, conditional: load.conditional, hops: load.hops, events: load.events)
        } catch {
            // The provider described the URL: its answer beats a failed page.
            if let listedAnswer, error.kind == .failed {
                logFallback(url: url, endpoint: listed, reason: "the page failed: \(error.message)")
                return .answer(listedAnswer, url: url)
            }
            throw error
        }
        switch page {
        case .notModified:
            return PreviewLoad(page: page)
        case .wall(let wall, let discovery):
            if let listedAnswer {
                logFallback(url: url, endpoint: listed, reason: "the page is a \(wall.cardPhrase)")
                return .answer(listedAnswer, url: url)
            }
            // The provider list was asked already; the wall's own discovery is the last chance.
            if settings.oembed, let discovery, discovery != listed,
                let answer = await oEmbed(discovery, deadline: deadline, headers: language)
            {
                logFallback(url: url, endpoint: discovery, reason: "the page is a \(wall.cardPhrase); the wall named the endpoint")
                return .answer(answer, url: url)
            }
            throw .blocked(wall)
        case .page(let metadata, let fields, let discovery):
            if let listedAnswer {
                return PreviewLoad(page: .page(listedAnswer.fill(metadata), fields: fields), cacheAge: listedAnswer.cacheAge)
            }
            guard let discovery, discovery != listed, OEmbedResponse.couldFill(metadata),
                let answer = await oEmbed(discovery, deadline: deadline, headers: language)
            else { return PreviewLoad(page: page) }
            return PreviewLoad(page: .page(answer.fill(metadata), fields: fields), cacheAge: answer.cacheAge)
        }
    }

    /// Asks an oEmbed endpoint, within half the time left (at most
    /// `oEmbedMaximumSeconds`), through the address policy like every
    /// request, reading at most `OEmbedResponse.maximumBytes`. Nil for
    /// anything but a usable answer.
    func oEmbed(_ endpoint: String, deadline: ContinuousClock.Instant, headers: [String]) async -> OEmbedResponse? {
        let budget = min(Self.oEmbedMaximumSeconds, Self.seconds(until: deadline) / 2)
        guard budget >= Self.minimumTimeout, !Task.isCancelled else { return nil }
        let request = transferRequest(
            url: endpoint, timeout: budget, maxBytes: OEmbedResponse.maximumBytes + 1,
            headers: headers + ["Accept: application/json"])
        let result: TransferResult<OEmbedConsumer.Output>
        do { result = try await perform(request, consumer: OEmbedConsumer()) } catch {
            logger.debug("oEmbed request failed", metadata: ["endpoint": "\(endpoint)", "error": "\(error.message)"])
            return nil
        }
        guard let status = result.head?.status, (200..<300).contains(status),
            !result.output.oversized, !result.truncated
        else {
            logger.debug("oEmbed answer not used", metadata: [
                "endpoint": "\(endpoint)", "status": "\(result.head?.status ?? 0)",
                "reason": "\(result.output.oversized || result.truncated ? "too large" : "not a 2xx status")",
            ])
            return nil
        }
        guard let answer = OEmbedResponse.parse(result.output.bytes) else {
            logger.debug("oEmbed answer not used", metadata: ["endpoint": "\(endpoint)", "reason": "not oEmbed JSON"])
            return nil
        }
        return answer
    }

    /// An oEmbed answer stands in for the page.
    private func logFallback(url: String, endpoint: String?, reason: String) {
        logger.info("oEmbed fallback taken", metadata: [
            "url": "\(url)", "endpoint": "\(endpoint ?? "")", "reason": "\(reason)",
        ])
    }

    /// The longest an oEmbed request may take, whatever the fetch's timeout.
    static let oEmbedMaximumSeconds = 10.0

    static func seconds(until deadline: ContinuousClock.Instant) -> Double {
        let left = deadline - .now
        return Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
    }

    /// The oEmbed endpoint a wall's response names, only when it was served
    /// at the URL asked for (a redirect's target describes the wall, not the page).
    func walled<Output>(_ wall: Wall, _ head: ResponseHead, _ result: TransferResult<Output>) -> PageLoad {
        logger.info("wall detected", metadata: [
            "url": "\(head.url)", "status": "\(head.status)", "wall": "\(wall.rawValue)", "reason": "\(wall.sentence)",
        ])
        return .wall(wall, discovery: wallDiscovery(head, result))
    }

    func wallDiscovery<Output>(_ head: ResponseHead, _ result: TransferResult<Output>) -> String? {
        guard settings.oembed, result.redirects.isEmpty else { return nil }
        return OEmbedDiscovery.endpoint(in: nil, linkHeader: head["link"], pageURL: head.url)
    }
}
