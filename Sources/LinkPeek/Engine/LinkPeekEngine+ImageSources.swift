import Curl
import FoundationEssentials

/// Source images: read from the image cache, or fetched through the transfer
/// engine (address policy, redirects, byte cap), one fetch per URL at a time.
extension LinkPeekEngine {
    /// A source's bytes: from the image cache while fresh, else fetched
    /// (`willFetch` is called first, for progress).
    func sourceImage(
        url: String, timeout: Double, allowNetwork: Bool, willFetch: () -> Void = {}
    ) async throws(FetchError) -> ImageBlob {
        if let cached = images.source(url) { return cached }
        if DataURL.isDataURL(url) {
            // A page's icon or image given inline.
            let bytes = try DataURL.bytes(url)
            return ImageBlob(bytes: bytes, type: "", sourceURL: url, expiresAt: Date().addingTimeInterval(CacheLifetime.maximum))
        }
        guard allowNetwork else { throw Self.notCachedImage }
        willFetch()
        let fetched = try await fetchSource(url: url, timeout: timeout)
        if fetched.isPage {
            throw .image(.unsupportedImage, "the image URL serves an HTML page.")
        }
        images.storeSource(fetched.blob, for: url)
        return fetched.blob
    }

    /// One GET of a source, shared with the requests that want the same URL at the same time.
    func fetchSource(url: String, timeout: Double) async throws(FetchError) -> FetchedSource {
        try await images.sourceFlights.run(url) { await self.fetchSourceOnce(url: url, timeout: timeout) }.get()
    }

    /// One GET through the transfer engine (address policy, redirects, byte cap).
    private func fetchSourceOnce(url: String, timeout: Double) async -> Result<FetchedSource, FetchError> {
        do throws(FetchError) {
            return .success(try await fetchSourceThrowing(url: url, timeout: timeout))
        } catch {
            return .failure(error)
        }
    }

    private func fetchSourceThrowing(url: String, timeout: Double) async throws(FetchError) -> FetchedSource {
        let maxBytes = settings.maxSubresourceBytes
        try admission.checkBackoff(url: url, ignoring: false, image: true)
        let request = try await admission.admitted(transferRequest(url: url, timeout: timeout, maxBytes: maxBytes))
        let result: TransferResult<SourceConsumer.Output>
        do {
            result = try await transfers.perform(request, consumer: SourceConsumer(maxBytes: maxBytes))
        } catch {
            throw FetchError(error)
        }
        if let head = result.head { try admission.noteRateLimit(head, image: true) }
        let output = result.output
        guard (200..<300).contains(output.status) else { throw .httpStatus(output.status) }
        if output.tooLarge || result.truncated {
            throw .image(.imageTooLarge, "the image is larger than \(maxBytes) bytes.")
        }
        // The source's own HTTP freshness (Cache-Control, clamped as for previews).
        let fields = output.cacheControl.map { ["cache-control": $0] } ?? [:]
        let expires = now().addingTimeInterval(Freshness(fields: fields, now: now()).lifetime)
        let blob = ImageBlob(
            bytes: output.bytes, type: ImageProbe.probe(output.bytes)?.mimeType ?? "",
            sourceURL: result.head?.url ?? url, expiresAt: expires)
        return FetchedSource(blob: blob, isPage: output.isPage)
    }

    static let notCachedImage = FetchError.image(
        .notCached, "no cached image for this URL, and the cache policy forbids the network.")
}
