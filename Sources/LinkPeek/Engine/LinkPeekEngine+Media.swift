import Curl
import FoundationEssentials
import Logging

extension LinkPeekEngine {
    /// Fetches the chosen icon and image side by side and fills in their
    /// type, byte size and pixel size (and bytes, with `includeData`). A
    /// declared resource that fails keeps its URL; the `/favicon.ico`
    /// fallback that fails is dropped, since the page never named it.
    /// Only a resource fetched here whose bytes are an image gets `bytes`
    /// (`isVerified`), and `richness` is decided again from what was verified.
    public func loadSubresources(
        of metadata: LinkMetadata, options: FetchOptions, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async -> LinkMetadata {
        var metadata = metadata
        let timeout = Self.clampedTimeout(options.timeout ?? settings.timeout)
        // Progress keeps counting page bytes: the subresources come after them.
        let pageBytes = metadata.bytesRead ?? 0
        let declaredIcon = metadata.icon
        let declaredImage = metadata.image
        // Both stages are announced before either starts, so they arrive in
        // the documented order although the two fetches run side by side.
        if declaredIcon != nil { events(.progress(stage: .icon, bytes: pageBytes)) }
        if declaredImage != nil { events(.progress(stage: .image, bytes: pageBytes)) }
        let reload = options.cachePolicy == .reload
        async let icon = declaredIcon.asyncMap { icon in
            await self.loadMedia(icon, includeData: options.includeData, timeout: timeout, reload: reload)
        }
        async let image = declaredImage.asyncMap { image in
            await self.loadMedia(image, includeData: options.includeData, timeout: timeout, reload: reload)
        }
        let (loadedIcon, loadedImage) = await (icon, image)
        if let loadedIcon {
            if loadedIcon.loaded {
                metadata.icon = loadedIcon.resource
                metadata.icon?.isUnverifiedFallback = false
            } else if loadedIcon.resource.isUnverifiedFallback {
                metadata.icon = nil
                metadata.sources?["icon"] = nil
                metadata.richness = Richness(of: metadata)
            }
        }
        if let loadedImage { metadata.image = loadedImage.resource }
        // What was verified just now, whatever the page declared.
        let pageIsImage = metadata.sources?["image"] == "response" && metadata.richness == .image
        metadata.richness = Richness(of: metadata, pageIsImage: pageIsImage)
        return metadata
    }

    /// One subresource; `loaded` is false when it could not be fetched, or
    /// its host asked to be left alone (`HostBackoff`; `reload` asks anyway).
    private func loadMedia(
        _ resource: MediaResource, includeData: Bool, timeout: Double, reload: Bool
    ) async -> (resource: MediaResource, loaded: Bool) {
        guard !resource.url.hasPrefix("data:"), case .success(let url) = URLCheck.validate(resource.url),
            (try? admission.checkBackoff(url: url, ignoring: reload)) != nil
        else {
            return (resource, false)
        }
        let request = transferRequest(url: url, timeout: timeout, maxBytes: settings.maxSubresourceBytes)
        let fetched: TransferResult<MediaConsumer.Output>
        do throws(FetchError) { fetched = try await perform(request, consumer: MediaConsumer(keepAll: includeData)) } catch {
            logger.debug("subresource not verified", metadata: ["url": "\(url)", "error": "\(error.message)"])
            return (resource, false)
        }
        // A 429 or 503 with Retry-After holds the host for the next fetches too.
        if let head = fetched.head { _ = try? admission.noteRateLimit(head) }
        guard (200..<300).contains(fetched.output.status), !fetched.output.bytes.isEmpty else {
            logger.debug("subresource not verified", metadata: [
                "url": "\(url)", "status": "\(fetched.output.status)", "bytes": "\(fetched.output.bytes.count)",
            ])
            return (resource, false)
        }
        let result = fetched

        let output = result.output
        // Bytes that are no image (an error page served with 200) verify nothing.
        guard let probed = ImageProbe.probe(output.bytes) else { return (resource, false) }
        var resource = resource
        resource.type = probed.mimeType
        resource.width = probed.width ?? resource.width
        resource.height = probed.height ?? resource.height
        resource.bytes = output.complete && !result.truncated ? output.bytes.count : output.declaredLength
        if includeData, output.complete, !result.truncated {
            resource.data = Data(output.bytes).base64EncodedString()
        }
        resource.dataLeftOut = !includeData
        return (resource, true)
    }
}

extension Optional {
    /// `map` for an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async -> T) async -> T? {
        guard let value = self else { return nil }
        return await transform(value)
    }
}
