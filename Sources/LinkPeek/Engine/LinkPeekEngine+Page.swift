import Curl
import HTMLHead
import Synchronization

extension LinkPeekEngine {
    /// What fetching a page gave.
    enum PageLoad {
        /// The page's metadata, and the final response's header fields;
        /// the oEmbed endpoint the page names, when `settings.oembed`.
        /// Boxed (`indirect`): a load's stages hold it across their
        /// `await`s, in task frames that last as long as the request.
        indirect case page(LinkMetadata, fields: [String: String], discovery: String? = nil)
        /// The site showed a wall (`WallDetector`); the oEmbed endpoint the
        /// wall's response named, when it was served at the URL asked for.
        case wall(Wall, discovery: String?)
        /// `304 Not Modified` to a conditional request: the stored copy is
        /// still good; the fields may renew its lifetime.
        case notModified(fields: [String: String])
    }

    /// Fetches the page itself (sending `headers` too) and turns it into metadata.
    /// `conditional`: the headers revalidate a stored copy, so a `304` means "still good".
    /// `partials` is asked when the head is parsed: whether anyone wants a partial result.
    /// `hops`: what this fetch followed before this page (a meta refresh), and
    /// whether a held host (`HostBackoff`) is asked all the same.
    func loadPage(
        url: String, timeout: Double, partials: @escaping @Sendable () -> Bool, headers: [String],
        conditional: Bool, hops: PageHops = PageHops(),
        events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> PageLoad {
        try admission.checkBackoff(url: url, ignoring: hops.ignoresBackoff)
        events(.progress(stage: .resolving, bytes: 0))
        var request = transferRequest(url: url, timeout: timeout, maxBytes: settings.maxBodyBytes, headers: headers)
        // Refreshes followed count towards the redirect limit.
        request.maxRedirects = max(0, settings.maxRedirects - hops.earlier.count)
        // Written and read on the curl thread only (the consumer's events come from there, in order).
        let response = Mutex<ResponseHead?>(nil)
        // Stages never go backwards (protocol §4): a redirect to a new
        // connection, after the first request was sent, stays `waiting`.
        let reached = Mutex<FetchStage>(.resolving)
        let enter = { @Sendable (stage: FetchStage) in
            let forward = reached.withLock { reached in
                guard FetchStage.allCases.firstIndex(of: stage) ?? 0 >= FetchStage.allCases.firstIndex(of: reached) ?? 0
                else { return false }
                reached = stage
                return true
            }
            if forward { events(.progress(stage: stage, bytes: 0)) }
        }
        let consumer = PageConsumer(bodyScanBytes: settings.bodyScanBytes) { event in
            switch event {
            case .connecting:
                enter(.connecting)
            case .waiting:
                enter(.waiting)
            case .responded(let head):
                response.withLock { $0 = head }
            case .downloading(let bytes):
                events(.progress(stage: .downloading, bytes: bytes))
            case .headParsed(let document, let bytes):
                events(.progress(stage: .parsing, bytes: bytes))
                let head = response.withLock { $0 }
                // A page that only sends the reader on has nothing to show.
                guard partials(), MetaRefresh.redirectTarget(in: document, pageURL: head?.url ?? url) == nil
                else { return }
                var partial = Self.partial(from: document, url: url, response: head)
                partial.originalURL = hops.earlier.first?.url ?? url
                events(.partial(partial))
            }
        }
        let result = try await perform(request, consumer: consumer)
        guard let head = result.head else {
            throw .failed(.network, "the server sent no response.")
        }
        try admission.noteRateLimit(head)
        if head.status == 304, conditional {
            return .notModified(fields: head.fields)
        }
        var wall = WallDetector.Response(
            status: head.status, fields: head.fields, originalURL: url,
            hops: result.redirects.dropFirst().map(\.url) + [head.url], evidence: result.output.wallEvidence)
        guard (200..<300).contains(head.status) else {
            if let found = WallDetector.detect(wall) { return walled(found, head, result) }
            throw .httpStatus(head.status)
        }

        var metadata: LinkMetadata
        switch result.output.body {
        case .html:
            let document = result.output.document ?? HeadDocument()
            if let target = MetaRefresh.redirectTarget(in: document, pageURL: head.url) {
                return try await followRefresh(
                    to: target, from: head, redirects: result.redirects, hops: hops, timeout: timeout,
                    partials: partials, headers: headers, events: events)
            }
            metadata = MetadataRules.extract(
                from: document, pageURL: head.url, contentLanguage: head["content-language"])
        case .media(let type):
            metadata = Self.mediaMetadata(url: head.url, type: type, prefix: result.output.mediaPrefix)
        case .unsupported(let why):
            throw .failed(.unsupportedContentType, "\(why).")
        case .empty:
            throw .failed(.emptyBody, "the server sent an empty body.")
        }
        // After a refresh, the first hop is the URL asked for.
        metadata.originalURL = hops.earlier.first?.url ?? url
        metadata.url = head.url
        let redirects = hops.earlier + result.redirects.map { RedirectHop(url: $0.url, status: $0.status) }
        metadata.redirects = redirects.isEmpty ? nil : redirects
        metadata.bytesRead = result.bytesRead
        metadata.truncated = result.truncated ? true : nil
        wall.title = metadata.title
        wall.declaresPreview = result.output.document.map(WallDetector.declaresPreview) ?? false
        if let found = WallDetector.detect(wall) { return walled(found, head, result) }
        let discovery = settings.oembed && result.output.body == .html
            ? OEmbedDiscovery.endpoint(in: result.output.document, linkHeader: head["link"], pageURL: head.url) : nil
        return .page(metadata, fields: head.fields, discovery: discovery)
    }

    /// What a partial result may show: the head's metadata resolved against
    /// the final URL (the response's, after redirects), without guesses the
    /// page never made (the `/favicon.ico` fallback is not yet known to exist).
    static func partial(from document: HeadDocument, url: String, response: ResponseHead?) -> LinkMetadata {
        var partial = MetadataRules.extract(
            from: document, pageURL: response?.url ?? url, contentLanguage: response?["content-language"])
        partial.originalURL = url
        partial.url = response?.url
        if partial.icon?.isUnverifiedFallback == true {
            partial.icon = nil
            partial.sources?["icon"] = nil
            partial.richness = Richness(of: partial)
        }
        return partial
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
            metadata.sources = ["image": "response"]
        } else if type.hasPrefix("video/") {
            metadata.video = resource
            metadata.remoteVideoURL = url
            metadata.sources = ["video": "response"]
        } else {
            metadata.audio = resource
            metadata.sources = ["audio": "response"]
        }
        let provedImage = type.hasPrefix("image/") && ImageProbe.probe(prefix) != nil
        metadata.richness = Richness(of: metadata, pageIsImage: provedImage)
        return metadata
    }
}
