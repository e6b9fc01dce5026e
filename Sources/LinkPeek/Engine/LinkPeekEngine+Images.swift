import Curl
import FoundationEssentials

/// A transformed image, as `getMedia` answers.
public struct MediaImage: Sendable, Equatable {
    /// The URL asked for (a page or an image).
    public var url: String
    /// The image the variant was made from.
    public var sourceURL: String
    public var type: String
    public var width: Int
    public var height: Int
    public var bytes: [UInt8]
    /// The MIME type of the source image, as its bytes show it.
    public var sourceType: String
}

extension LinkPeekEngine {
    /// `url`'s image (or, for a page, its preview image or icon) transformed
    /// as `transform` says. A variant made before and still fresh costs a
    /// lookup; a new size of a known source costs no fetch.
    public func media(url: String, transform: ImageTransform, timeout: Double? = nil) async throws(FetchError) -> MediaImage {
        try await media(url: url, transform: transform, timeout: timeout, allowNetwork: true)
    }

    /// The same, reporting progress: `downloading` while the URL asked for
    /// is fetched, the page fetch's own stages when it is a page, `image`
    /// while the page's image (or icon) is fetched, then `transforming`.
    /// Work a cache answers reports nothing.
    public func media(
        url: String, transform: ImageTransform, timeout: Double?, events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> MediaImage {
        try await media(url: url, transform: transform, timeout: timeout, allowNetwork: true, events: events)
    }

    /// `media(url:transform:timeout:)`; without `allowNetwork` only what the
    /// caches hold is used (a `fetch` with `cachePolicy: cacheOnly`), else `notCached`.
    func media(
        url: String, transform: ImageTransform, timeout: Double?, allowNetwork: Bool,
        events: @escaping @Sendable (ProviderEvent) -> Void = { _ in }
    ) async throws(FetchError) -> MediaImage {
        if DataURL.isDataURL(url) { return try await DataURL.media(url, transform: transform, worker: images.worker) }
        let url = try URLCheck.validate(url).get()
        let timeout = Self.clampedTimeout(timeout ?? settings.timeout)
        let aliasKey = "\(transform.kind.rawValue) \(url)"
        let sourceURL: String
        if let known = images.alias(aliasKey) {
            sourceURL = known
        } else {
            sourceURL = try await resolveSource(
                url: url, kind: transform.kind, timeout: timeout, allowNetwork: allowNetwork, events: events)
        }
        let variantKey = sourceURL + " " + transform.variantKey
        if let variant = images.variant(variantKey) {
            images.storeAlias(aliasKey, sourceURL: sourceURL, expiresAt: variant.expiresAt)
            return MediaImage(
                url: url, sourceURL: sourceURL, type: variant.type, width: variant.width, height: variant.height,
                bytes: variant.bytes, sourceType: variant.sourceType)
        }
        if let failure = images.failure("source " + sourceURL) ?? images.failure(variantKey) { throw failure }
        // A render follows (unless the source fails): libvips opens while the source is read.
        images.worker.warmUp()
        let source: ImageBlob
        do {
            source = try await sourceImage(url: sourceURL, timeout: timeout, allowNetwork: allowNetwork) {
                events(.progress(stage: .image, bytes: 0))
            }
        } catch {
            images.storeFailure(error, for: "source " + sourceURL)
            throw error
        }
        images.storeAlias(aliasKey, sourceURL: sourceURL, expiresAt: source.expiresAt)
        if Task.isCancelled { throw .cancelled }
        let bytes = source.bytes
        events(.progress(stage: .transforming, bytes: bytes.count))
        let outcome = await images.worker.run { ImagePipeline.render(bytes, transform: transform) }
        if case .failure(let error) = outcome { images.storeFailure(error, for: variantKey) }
        let rendered = try outcome.get()
        let variant = ImageBlob(
            bytes: rendered.bytes, type: rendered.type, width: rendered.width, height: rendered.height,
            sourceURL: sourceURL, expiresAt: source.expiresAt, sourceType: rendered.sourceType)
        images.storeVariant(variant, for: variantKey)
        return MediaImage(
            url: url, sourceURL: sourceURL, type: rendered.type, width: rendered.width, height: rendered.height,
            bytes: rendered.bytes, sourceType: rendered.sourceType)
    }

    /// The image URL behind `url`: `url` itself when it serves an image
    /// (whose bytes are then kept, so they are not fetched twice), else the
    /// page's chosen image or icon.
    private func resolveSource(
        url: String, kind: ImageTransform.Kind, timeout: Double, allowNetwork: Bool,
        events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> String {
        let metadata: LinkMetadata
        if let key = CacheKey(rawURL: url, language: language(nil)), let entry = cache.lookup(key, url: url, now: now()), entry.isFresh(at: now()),
            case .metadata(let cached) = entry.value
        {
            metadata = cached
        } else {
            if images.source(url) != nil { return url }
            if let failure = images.failure("source " + url) { throw failure }
            guard allowNetwork else { throw Self.notCachedImage }
            let fetched: FetchedSource
            events(.progress(stage: .downloading, bytes: 0))
            // Most likely an image is on its way: libvips opens while it downloads.
            images.worker.warmUp()
            do {
                fetched = try await fetchSource(url: url, timeout: timeout)
            } catch {
                images.storeFailure(error, for: "source " + url)
                throw error
            }
            guard fetched.isPage else {
                images.storeSource(fetched.blob, for: url)
                return url
            }
            // The page's progress, not its partial result (getMedia's result is an image).
            metadata = try await fetch(url: url, options: FetchOptions(timeout: timeout, reportsPartialResults: false)) { event in
                if case .progress = event { events(event) }
            }
        }
        let chosen: MediaResource? =
            switch kind {
            case .image: metadata.image
            case .icon: metadata.icon
            case .auto: metadata.image ?? metadata.icon
            }
        guard let chosen else {
            throw .image(.unsupportedImage, "the page names no \(kind == .icon ? "icon" : "image").")
        }
        return chosen.url
    }
}
