import Curl
import HTMLHead

extension LinkPeekEngine {
    /// What fetching a page gave.
    enum PageLoad {
        /// The page's metadata, and the final response's header fields.
        case page(LinkMetadata, fields: [String: String])
        /// `304 Not Modified` to a conditional request: the stored copy is
        /// still good; the fields may renew its lifetime.
        case notModified(fields: [String: String])
    }

    /// Fetches the page itself (sending `headers` too) and turns it into metadata.
    func loadPage(
        url: String, timeout: Double, partials: Bool, headers: [String],
        events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> PageLoad {
        events(.progress(stage: .resolving, bytes: 0))
        let request = transferRequest(url: url, timeout: timeout, maxBytes: settings.maxBodyBytes, headers: headers)
        let consumer = PageConsumer(bodyScanBytes: settings.bodyScanBytes) { event in
            switch event {
            case .connecting:
                events(.progress(stage: .connecting, bytes: 0))
            case .downloading(let bytes):
                events(.progress(stage: .downloading, bytes: bytes))
            case .headParsed(let document, let bytes):
                // The final URL is not known here yet; the original resolves the same relative links
                // unless there were redirects, and the final answer corrects it.
                events(.progress(stage: .parsing, bytes: bytes))
                guard partials else { return }
                var partial = MetadataRules.extract(from: document, pageURL: url)
                partial.originalURL = url
                events(.partial(partial))
            }
        }
        let result = try await perform(request, consumer: consumer)
        guard let head = result.head else {
            throw .failed(.network, "the server sent no response.")
        }
        if head.status == 304, headers.contains(where: { $0.hasPrefix("If-") }) {
            return .notModified(fields: head.fields)
        }
        guard (200..<300).contains(head.status) else { throw .httpStatus(head.status) }

        var metadata: LinkMetadata
        switch result.output.body {
        case .html:
            let document = result.output.document ?? HeadDocument()
            metadata = MetadataRules.extract(
                from: document, pageURL: head.url, contentLanguage: head["content-language"])
        case .media(let type):
            metadata = Self.mediaMetadata(url: head.url, type: type, prefix: result.output.mediaPrefix)
        case .unsupported(let why):
            throw .failed(.unsupportedContentType, "\(why).")
        case .empty:
            throw .failed(.emptyBody, "the server sent an empty body.")
        }
        metadata.originalURL = url
        metadata.url = head.url
        metadata.redirects = result.redirects.isEmpty
            ? nil : result.redirects.map { RedirectHop(url: $0.url, status: $0.status) }
        metadata.bytesRead = result.bytesRead
        metadata.truncated = result.truncated ? true : nil
        return .page(metadata, fields: head.fields)
    }

    /// A response that is itself an image, video or audio file previews as that file.
    static func mediaMetadata(url: String, type: String, prefix: [UInt8]) -> LinkMetadata {
        var metadata = LinkMetadata(originalURL: url)
        var resource = MediaResource(url: url, type: type)
        if type.hasPrefix("image/") {
            let info = ImageProbe.probe(prefix)
            resource.width = info?.width
            resource.height = info?.height
            metadata.image = resource
            metadata.images = [resource]
            metadata.richness = .image
            metadata.sources = ["image": "response"]
        } else if type.hasPrefix("video/") {
            metadata.video = resource
            metadata.remoteVideoURL = url
            metadata.richness = .video
            metadata.sources = ["video": "response"]
        } else {
            metadata.audio = resource
            metadata.richness = .text
            metadata.sources = ["audio": "response"]
        }
        return metadata
    }
}
