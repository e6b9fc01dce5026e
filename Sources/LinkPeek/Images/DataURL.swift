import FoundationEssentials

/// Images given inline as `data:` URLs (an icon in a page's `<link>`, or a
/// client's own bytes): transformed like fetched ones, without the network
/// and without caching (the URL is the image).
enum DataURL {
    /// The worker of services that have none of their own.
    static let worker = ImageWorker()

    static func isDataURL(_ url: String) -> Bool {
        url.utf8.prefix(5).map { $0 | 0x20 } == Array("data:".utf8)
    }

    /// The bytes of a `data:[type];base64,…` URL.
    static func bytes(_ url: String) throws(FetchError) -> [UInt8] {
        guard let comma = url.firstIndex(of: ","), url[..<comma].lowercased().hasSuffix(";base64"),
              let data = Data(base64Encoded: String(url[url.index(after: comma)...]), options: .ignoreUnknownCharacters)
        else { throw .image(.unsupportedImage, "only base64 data: URLs are supported.") }
        return Array(data)
    }

    static func media(_ url: String, transform: ImageTransform, worker: ImageWorker) async throws(FetchError) -> MediaImage {
        let bytes = try bytes(url)
        let rendered = try await worker.run { ImagePipeline.render(bytes, transform: transform) }.get()
        // The URL can be long: the answer names the source by its type only.
        let name = "data:" + (ImageProbe.probe(bytes)?.mimeType ?? "")
        return MediaImage(
            url: name, sourceURL: name, type: rendered.type, width: rendered.width, height: rendered.height,
            bytes: rendered.bytes, sourceType: rendered.sourceType)
    }
}
