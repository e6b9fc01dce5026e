import FoundationEssentials
import Logging

extension LinkPeekEngine {
    /// `metadata` with a thumbnail on its icon and image when `options` asks
    /// for one. A thumbnail that fails is left out: the preview stands without it.
    /// With `cachePolicy: cacheOnly` only cached images are used.
    func withThumbnails(_ metadata: LinkMetadata, options: FetchOptions) async -> LinkMetadata {
        guard var requested = options.thumbnail else { return metadata }
        requested.kind = .image
        let transform = requested
        let timeout = options.timeout
        let allowNetwork = options.cachePolicy != .cacheOnly
        let iconURL = metadata.icon?.url
        let imageURL = metadata.image?.url
        async let icon = iconURL.asyncMap { await self.thumbnail(of: $0, transform: transform, timeout: timeout, allowNetwork: allowNetwork) }
        async let image = imageURL.asyncMap { await self.thumbnail(of: $0, transform: transform, timeout: timeout, allowNetwork: allowNetwork) }
        let (iconThumbnail, imageThumbnail) = await (icon, image)
        var metadata = metadata
        metadata.icon?.thumbnail = iconThumbnail ?? nil
        metadata.image?.thumbnail = imageThumbnail ?? nil
        return metadata
    }

    private func thumbnail(
        of url: String, transform: ImageTransform, timeout: Double?, allowNetwork: Bool
    ) async -> MediaThumbnail? {
        let image: MediaImage
        do throws(FetchError) {
            image = try await media(url: url, transform: transform, timeout: timeout, allowNetwork: allowNetwork)
        } catch {
            logger.debug("no thumbnail", metadata: ["url": "\(url)", "error": "\(error.message)"])
            return nil
        }
        return MediaThumbnail(
            type: image.type, width: image.width, height: image.height, bytes: image.bytes.count,
            data: Data(image.bytes).base64EncodedString())
    }
}
