import Logging

extension LinkPeekEngine {
    /// `MetadataService.cardImage`: the thumbnail comes from `media`, so
    /// its source is fetched (when not cached) through the same transfer
    /// engine and address policy as every fetch, and a refused or failed
    /// source is remembered as a failure, not fetched again at each hover.
    public func cardImage(for metadata: LinkMetadata, allowNetwork: Bool) async -> CardImage? {
        guard let image = metadata.image, image.isVerified, !DataURL.isDataURL(image.url) else { return nil }
        let made: MediaImage
        do throws(FetchError) {
            made = try await media(url: image.url, transform: CardImage.transform, timeout: nil, allowNetwork: allowNetwork)
        } catch {
            logger.debug("no card image", metadata: ["url": "\(image.url)", "error": "\(error.message)"])
            return nil
        }
        return CardImage(type: made.type, bytes: made.bytes)
    }
}
