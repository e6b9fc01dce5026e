import Hummingbird
import LinkPeek
import LinkPeekProtocol

extension Front {
    /// `GET /v1/image?url=…&width=…&format=…`: the page's preview image
    /// (or icon, or the URL's own image) transformed as `getMedia` does,
    /// through the same image cache and limits; the bytes themselves.
    func image(_ query: Query, request: Request) async -> Response {
        let known: Set<Substring> = ["url", "kind", "width", "height", "fit", "dpr", "format", "quality", "timeout"]
        if let unknown = query.first(where: { !known.contains($0.key) }) {
            return Reply.badParameter("unknown parameter \"\(unknown.key)\"")
        }
        let url: String
        switch PreviewParams.url(query, maxURLBytes: settings.maxURLBytes) {
        case .failure(let refusal): return refusal.response
        case .success(let checked): url = checked
        }
        var transform = ImageTransform()
        func number(_ name: String, _ range: NumberRange) throws(BadParameter) -> Double? {
            guard let text = query[Substring(name)] else { return nil }
            guard let value = Double(text), range.check(value, field: name) == nil else {
                throw BadParameter(range.check(Double(text) ?? .nan, field: name) ?? name)
            }
            return value
        }
        func choice<T: RawRepresentable & CaseIterable>(_ name: String, _: T.Type) throws(BadParameter) -> T?
        where T.RawValue == String {
            guard let text = query[Substring(name)] else { return nil }
            guard let value = T(rawValue: String(text)) else {
                throw BadParameter("\(name) must be one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return value
        }
        var timeout: Double?
        do throws(BadParameter) {
            if let side = try number("width", ParamRanges.imageSide) { transform.width = Int(exactly: side) }
            if let side = try number("height", ParamRanges.imageSide) { transform.height = Int(exactly: side) }
            if let dpr = try number("dpr", ParamRanges.dpr) { transform.dpr = dpr }
            if let quality = try number("quality", ParamRanges.quality) { transform.quality = Int(exactly: quality) ?? 80 }
            timeout = try number("timeout", ParamRanges.timeout)
            if let kind = try choice("kind", ImageTransform.Kind.self) { transform.kind = kind }
            if let fit = try choice("fit", ImageTransform.Fit.self) { transform.fit = fit }
            if let format = try choice("format", ImageTransform.Format.self) { transform.format = format }
        } catch {
            return Reply.badParameter(error.message)
        }
        let outcome: Result<MediaImage, FetchError>? = await gate.run {
            await Self.fetchImage(engine: engine, url: url, transform: transform, timeout: timeout)
        }
        switch outcome {
        case nil:
            return Reply.overloaded
        case .failure(let error)?:
            return Reply.failure(error)
        case .success(let image)?:
            var headers: HTTPFields = [:]
            headers[.contentType] = image.type
            let etag = ETag.of(image.bytes)
            headers[.eTag] = etag
            headers[.cacheControl] = "public, max-age=86400"
            if let match = request.headers[.ifNoneMatch], ETag.matches(match, etag) {
                return Response(status: .notModified, headers: headers)
            }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: image.bytes)))
        }
    }

    static func fetchImage(engine: LinkPeekEngine, url: String, transform: ImageTransform, timeout: Double?) async
        -> Result<MediaImage, FetchError>
    {
        do { return .success(try await engine.media(url: url, transform: transform, timeout: timeout)) }
        catch { return .failure(error) }
    }
}

/// A parameter out of its range or set, said in a sentence.
struct BadParameter: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
