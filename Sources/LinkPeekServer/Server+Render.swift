import JSONRPC
import LinkPeek
import LinkPeekProtocol

extension Server {
    /// `render {url | metadata, format}` → `{text}`: the same cards as the
    /// hover and the CLI. With `url`, the preview comes from the cache or a
    /// fetch (a failure gives a card that says why); with `metadata`, as given.
    func render(_ id: RequestID, _ rawParams: JSONValue?, _ responder: Responder) {
        guard let request = requestParams(RenderRequest.self, rawParams, id, responder) else { return }
        let (params, given) = (request.params, request.metadata)
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

/// `render`'s params with their `metadata` member, read here because
/// `LinkPeekProtocol` does not know `LinkMetadata`: the protocol's fields
/// first, then `metadata`, then the protocol's rules.
private struct RenderRequest: RequestParams {
    static var method: String { RenderParams.method }

    var params: RenderParams
    var metadata: LinkMetadata?

    private enum CodingKeys: String, CodingKey {
        case metadata
    }

    init(from decoder: any Decoder) throws {
        params = try RenderParams(from: decoder)
        metadata = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(LinkMetadata.self, forKey: .metadata)
    }

    func validationError() -> String? { params.validationError() }
}
