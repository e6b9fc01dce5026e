import JSONRPC
import LinkPeek
import Options
import LinkPeekProtocol
import Logging

/// `textDocument/hover`: the card of the URL under the cursor, within the
/// hover budget; `null` when there is no URL there (or the document is not
/// open).
extension HoverParams: ServiceRequest {
    var tokensUsed: (workDone: ProgressToken?, partialResult: ProgressToken?) { (workDoneToken, nil) }

    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<Hover?> {
        let position = position.integers
        guard let document = server.documents[textDocument.uri],
            let target = document.hoverTarget(atLine: position.line, column: position.character, encoding: server.lsp.positionEncoding)
        else {
            return .answer(.success(nil))
        }
        let range = LSPRange(
            start: LSPPosition(line: target.line, character: target.start), end: LSPPosition(line: target.line, character: target.end))
        let url = target.url
        let reporter = ProgressReporter(
            connection: server.connection, title: "Fetching \(url)", workDoneToken: workDoneToken, partialResultToken: nil)
        let format = server.lsp.hoverFormat
        let images = server.hoverWantsImages
        // Runs on the server up to its first suspension: a cached card is answered at once.
        return .run(RequestWork(.immediate, reporter: reporter) { server in
            let card = await server.hoverCard(url: url, images: images, events: reporter.handle)
            return .success(Hover(contents: format.content(card, includeImage: images), range: range))
        })
    }
}

extension Server {
    /// The one place that decides where a hover's preview comes from:
    /// 1. the cache, at once (`cachedPreview`: each level asked once); a
    ///    stale entry through the `staleWhileRevalidate` policy (the stale
    ///    card at once, refreshed in the background);
    /// 2. else the shared background fetch of the URL, carrying what the
    ///    cache held (no level is asked again), waited on for at most the
    ///    hover budget: its result, or what is known so far (title first, at
    ///    least the host) with "loading…".
    func hoverCard(url: String, images: Bool, events: @escaping @Sendable (ProviderEvent) -> Void) async -> LinkCard {
        let service = currentService()
        let request: PreviewRequest
        switch await service.cachedPreview(url: url, options: Self.previewOptions) {
        case .preview(let cached): return await Self.card(of: cached, service: service, images: images)
        case .miss(let missed): request = missed
        }
        guard lsp.hover.hoverMayFetch(host: URLParts(url)?.host ?? "") else { return Self.notFetchedCard(url: url) }
        // Joined before anything can suspend: the flight's task runs on this
        // actor, and a flight already running emits from other threads, so
        // the listener is in before the next event of either.
        let flight = previewFlight(for: request)
        let ticket = flight.join(listener: events)
        await flight.wait(ticket, atMost: lsp.hoverBudget)
        let snapshot = flight.snapshot
        switch snapshot.outcome {
        case .failure(let error)?:
            logger.warning("hover failed", metadata: [
                "url": "\(url)", "reason": "\(error.reason?.rawValue ?? error.kind.rawValue)", "error": "\(error.message)",
            ])
        case nil:
            logger.debug("hover answered before the fetch finished", metadata: [
                "url": "\(url)", "budget": "\(lsp.hoverBudget)",
            ])
        case .success?:
            break
        }
        var card = Self.card(url: url, snapshot)
        if images { card.image = flight.cardImage }
        return card
    }

    /// Whether hover cards carry an image: `hoverImages` on, and a client
    /// that reads Markdown (a plain-text card has no image line).
    var hoverWantsImages: Bool { lsp.hoverImages && lsp.hoverFormat == .markdown }

    /// The card of a cached preview, with the thumbnail the image cache
    /// already holds. When it holds none for a verified image, one is made
    /// in the background (under the address policy, like any fetch) for
    /// the next hover: a cache hit never waits on the network.
    static func card(of metadata: LinkMetadata, service: any MetadataService, images: Bool) async -> LinkCard {
        var card = LinkCard(metadata: metadata)
        guard images else { return card }
        card.image = await service.cardImage(for: metadata, allowNetwork: false)
        if card.image == nil, metadata.image?.isVerified == true {
            Task(priority: .background) { _ = await service.cardImage(for: metadata, allowNetwork: true) }
        }
        return card
    }

    /// The card of a URL `hover.fetch` keeps a hover from fetching: one
    /// line that says so and names what fetches it.
    static func notFetchedCard(url: String) -> LinkCard {
        var card = LinkCard(originalURL: url)
        let host = URLParts(url)?.host ?? url
        card.status = "not fetched: hover fetching is off for \(host) (hover.fetch; the linkpeek fetch command or a fetch request fetches it)"
        return card
    }

    static func card(url: String, _ snapshot: (outcome: PreviewFlight.Outcome?, partial: LinkMetadata?)) -> LinkCard {
        switch snapshot.outcome {
        case .success(let metadata)?: LinkCard(metadata: metadata)
        case .failure(let error)?: LinkCard(originalURL: url, failure: error)
        case nil: LinkCard.loading(originalURL: url, partial: snapshot.partial)
        }
    }

    /// What a background fetch of a URL asks for: subresources too (the
    /// entry this stores in the cache serves `fetch` requests as well), and
    /// partial results for the hovers waiting.
    static let previewOptions = FetchOptions(reportsPartialResults: true)

    /// The background fetch of `request`'s URL, started if none runs. It
    /// belongs to the server: no request's cancel ends it, only the session's end.
    func previewFlight(for request: PreviewRequest, prefetch: Bool = false) -> PreviewFlight {
        let url = request.url
        if let running = previews[url] { return running }
        let flight = PreviewFlight(isPrefetch: prefetch)
        previews[url] = flight
        let service = currentService()
        let images = hoverWantsImages
        let task = Task(priority: prefetch ? .background : nil) {
            let outcome = await Self.runPreview(service: service, request: request, flight: flight)
            // The card is done when its thumbnail is: made before the hovers waiting are released.
            if images, case .success(let metadata) = outcome {
                flight.cardImage = await service.cardImage(for: metadata, allowNetwork: true)
            }
            flight.finish(outcome)
            self.previewFinished(url: url, flight: flight)
        }
        flight.attach(task)
        return flight
    }

    static func runPreview(
        service: any MetadataService, request: PreviewRequest, flight: PreviewFlight
    ) async -> PreviewFlight.Outcome {
        do {
            return .success(try await service.fetch(request, events: flight.handle).metadata)
        } catch {
            return .failure(error)
        }
    }

    private func previewFinished(url: String, flight: PreviewFlight) {
        if previews[url] === flight { previews[url] = nil }
        if flight.isPrefetch {
            prefetchRunning -= 1
            pumpPrefetch()
        }
    }
}
