import JSONRPC
import LinkPeek
import LinkPeekProtocol

/// `render {url | metadata, format}` → `{text}`: the same cards as the
/// hover and the CLI. With `url`, the preview comes from the cache or a
/// fetch (a failure gives a card that says why); with `metadata`, as given.
extension RenderRequest: ServiceRequest {
    func handle(_ request: IncomingRequest, on server: isolated Server) -> Handling<RenderResult> {
        let format = CardFormat(rawValue: params.format.rawValue) ?? .markdown
        let style = TextCard.Style(
            color: params.color ?? false, width: params.width.flatMap(ParamRanges.cardWidth.integer) ?? 80)
        // The text card has no image; the others embed the thumbnail, never a URL.
        let includeImage = (params.includeImage ?? true) && format != .text
        let (url, given) = (params.url ?? "", metadata)
        let service = server.currentService()
        return .run(RequestWork(.immediate) { _ in
            let card = await Server.renderCard(service: service, url: url, given: given, images: includeImage)
            return .success(RenderResult(text: format.render(card, includeImage: includeImage, textStyle: style)))
        })
    }
}

extension Server {
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
/// first, then `metadata`, then the protocol's rules, then exactly one of
/// `url` and `metadata`.
struct RenderRequest: RequestParams {
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

    func validationError() -> String? {
        params.validationError() ?? ((params.url == nil) == (metadata == nil) ? "give exactly one of url and metadata" : nil)
    }
}
