import Hummingbird
import JSON
import LinkPeek
import LinkPeekProtocol

extension Front {
    /// `GET /v1/oembed?url=…&maxwidth=…&maxheight=…`: the preview as an
    /// oEmbed 1.0 answer, so that any oEmbed consumer can use linkpeek as
    /// its provider. `format` may be `json` only (501 otherwise, as oEmbed says).
    func oembed(_ query: Query) async -> Response {
        if let unknown = query.first(where: { !["url", "maxwidth", "maxheight", "format"].contains($0.key) }) {
            return Reply.badParameter("unknown parameter \"\(unknown.key)\"")
        }
        if let format = query["format"], format != "json" {
            return Reply.problem(.notImplemented, reason: "unsupportedFormat", "Only format=json is served.")
        }
        var bounds: [Int?] = []
        for name in ["maxwidth", "maxheight"] {
            guard let text = query[Substring(name)] else {
                bounds.append(nil)
                continue
            }
            guard let value = Double(text), let side = ParamRanges.imageSide.integer(value) else {
                return Reply.badParameter(ParamRanges.imageSide.check(Double(text) ?? .nan, field: name) ?? name)
            }
            bounds.append(side)
        }
        let url: String
        switch PreviewParams.url(query, maxURLBytes: settings.maxURLBytes) {
        case .failure(let refusal): return refusal.response
        case .success(let checked): url = checked
        }
        let outcome: Result<LinkMetadata, FetchError>? = await gate.run {
            await Self.fetchMetadata(engine: engine, url: url)
        }
        switch outcome {
        case nil:
            return Reply.overloaded
        case .failure(let error)?:
            return Reply.failure(error)
        case .success(let metadata)?:
            var writer = JSONWriter(capacity: 512)
            try? writer.write(.object(OEmbedAnswer(metadata, maxWidth: bounds[0], maxHeight: bounds[1]).members))
            return Reply.json(writer.bytes)
        }
    }

    static func fetchMetadata(engine: LinkPeekEngine, url: String) async -> Result<LinkMetadata, FetchError> {
        do { return .success(try await engine.fetch(url: url, options: FetchOptions(reportsPartialResults: false))) }
        catch { return .failure(error) }
    }
}

/// An oEmbed 1.0 answer made from a preview: `video` when the page has a
/// video with a size, `photo` when the URL is itself an image, else `link`;
/// with the title, author, provider, `cache_age` and the image as thumbnail.
/// Sizes are scaled down (never up) to fit `maxwidth` and `maxheight`.
struct OEmbedAnswer {
    var members: [String: JSONValue] = ["version": .string("1.0")]

    init(_ metadata: LinkMetadata, maxWidth: Int?, maxHeight: Int?) {
        let page = metadata.url ?? metadata.originalURL
        if let title = metadata.title { members["title"] = .string(title) }
        if let author = metadata.author { members["author_name"] = .string(author) }
        if let authorURL = metadata.authorURL { members["author_url"] = .string(authorURL) }
        if let parts = URLParts(page), let scheme = page.split(separator: ":").first {
            members["provider_url"] = .string("\(scheme)://\(parts.authority)/")
            members["provider_name"] = .string(metadata.siteName ?? parts.host)
        }
        if let expires = metadata.expiresAt, let seconds = PreviewFreshness.parseISO(Array(expires.utf8), from: 0) {
            members["cache_age"] = .int(Int(max(0, seconds - PreviewFreshness.currentSeconds())))
        }
        let fit = { (width: Int, height: Int) in Self.fit(width, height, maxWidth: maxWidth, maxHeight: maxHeight) }
        if let image = metadata.image, let width = image.width, let height = image.height {
            let (w, h) = fit(width, height)
            members["thumbnail_url"] = .string(image.url)
            members["thumbnail_width"] = .int(w)
            members["thumbnail_height"] = .int(h)
        }
        if let video = metadata.video, let width = video.width, let height = video.height {
            let (w, h) = fit(width, height)
            let source = Self.attribute(video.url)
            let direct = metadata.remoteVideoURL == video.url || (video.type ?? "").hasPrefix("video/")
            members["type"] = .string("video")
            members["html"] = .string(direct
                ? "<video src=\"\(source)\" width=\"\(w)\" height=\"\(h)\" controls></video>"
                : "<iframe src=\"\(source)\" width=\"\(w)\" height=\"\(h)\" frameborder=\"0\" allowfullscreen></iframe>")
            members["width"] = .int(w)
            members["height"] = .int(h)
        } else if let image = metadata.image, image.url == page, let width = image.width, let height = image.height {
            let (w, h) = fit(width, height)
            members["type"] = .string("photo")
            members["url"] = .string(image.url)
            members["width"] = .int(w)
            members["height"] = .int(h)
        } else {
            members["type"] = .string("link")
        }
    }

    /// `width`×`height` scaled down to fit the bounds, keeping the ratio (at least 1×1).
    static func fit(_ width: Int, _ height: Int, maxWidth: Int?, maxHeight: Int?) -> (Int, Int) {
        guard width > 0, height > 0 else { return (max(width, 0), max(height, 0)) }
        var scale = 1.0
        if let maxWidth, width > maxWidth { scale = min(scale, Double(maxWidth) / Double(width)) }
        if let maxHeight, height > maxHeight { scale = min(scale, Double(maxHeight) / Double(height)) }
        guard scale < 1 else { return (width, height) }
        // Safe: the results are at most the (Int) inputs.
        return (max(1, Int((Double(width) * scale).rounded(.down))), max(1, Int((Double(height) * scale).rounded(.down))))
    }

    /// `text` for a double-quoted HTML attribute.
    static func attribute(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}
