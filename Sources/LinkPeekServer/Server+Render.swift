import JSONRPC
import LinkPeek
import LinkPeekProtocol

extension Server {
    /// `render {url | metadata, format}` → `{text}`: the same cards as the
    /// hover and the CLI. With `url`, the preview comes from the cache or a
    /// fetch (a failure gives a card that says why); with `metadata`, as given.
    func render(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        let params: RenderParams
        let given: LinkMetadata?
        switch decodeParams(RenderParams.self, from: rawParams).flatMap({ params in
            decodeParams(RenderMetadata.self, from: rawParams).map { (params, $0.metadata) }
        }) {
        case .success(let decoded): (params, given) = decoded
        case .failure(let error): return responder.respond(.error(id, error))
        }
        if let problem = params.validationError() {
            return responder.respond(.error(id, .invalidParams(problem)))
        }
        guard (params.url == nil) != (given == nil) else {
            return responder.respond(.error(id, .invalidParams("give exactly one of url and metadata")))
        }
        let format = CardFormat(rawValue: params.format.rawValue) ?? .markdown
        let style = TextCard.Style(
            color: params.color ?? false, width: params.width.flatMap(ParamRanges.cardWidth.integer) ?? 80)
        // The text card has no image; the others embed the thumbnail, never a URL.
        let includeImage = (params.includeImage ?? true) && format != .text
        let url = params.url ?? ""
        let service = currentService()
        requests[id] = InFlight(task: nil, provider: nil, reporter: nil, responder: responder)
        let task = Task.immediate {
            let card = await Self.renderCard(service: service, url: url, given: given, images: includeImage)
            let text = format.render(card, includeImage: includeImage, textStyle: style)
            self.complete(id, with: encodeResult(RenderResult(text: text)))
        }
        requests[id]?.task = task
    }

    /// The card of `given` (used as given), else of `url` from the cache or
    /// a fetch; with `images`, its thumbnail (`cardImage`: made from the
    /// image only when a fetch verified it, fetched under the address policy).
    static func renderCard(service: any MetadataService, url: String, given: LinkMetadata?, images: Bool) async -> LinkCard {
        let metadata: LinkMetadata
        if let given {
            metadata = given
        } else {
            do {
                metadata = try await service.fetch(url: url, options: FetchOptions(reportsPartialResults: false)) { _ in }
            } catch {
                return LinkCard(originalURL: url, failure: error)
            }
        }
        var card = LinkCard(metadata: metadata)
        if images { card.image = await service.cardImage(for: metadata, allowNetwork: true) }
        return card
    }
}

/// The `metadata` member of `render`'s params, read here because
/// `LinkPeekProtocol` does not know `LinkMetadata`.
private struct RenderMetadata: Decodable {
    var metadata: LinkMetadata?
}
