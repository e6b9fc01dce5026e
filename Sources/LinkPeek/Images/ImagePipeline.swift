import Images

/// An image as `getMedia` returns it.
public struct RenderedImage: Sendable, Equatable {
    public var bytes: [UInt8]
    /// The MIME type of `bytes`.
    public var type: String
    public var width: Int
    public var height: Int
    /// The MIME type the source's bytes show ("image/bmp" for a BMP made PNG).
    public var sourceType: String
}

/// Turns a source image's bytes into the variant a transform asks for.
///
/// Order matters here: the bytes' magic decides the format (never the
/// `Content-Type`), the header's declared size is checked against the pixel
/// cap before anything is decoded, an SVG is sanitised before librsvg sees
/// it, and only then does libvips decode, at reduced scale where the format
/// allows (JPEG, WebP, SVG at the target size), for at most `timeLimit`
/// seconds (libvips is asked to stop as it computes tiles).
///
/// - Important: blocking: call it through `ImageWorker`.
public enum ImagePipeline {
    /// Pixels a source may declare (50 megapixels): above, it is refused before decoding.
    public static let defaultMaxPixels = 50_000_000
    /// Seconds of decoding and encoding one image may take before it is stopped
    /// (libvips looks at the clock between tiles: a stop comes at the next tile
    /// boundary, late for an SVG, whose tiles librsvg draws whole).
    public static let defaultTimeLimit = 10.0

    public static func render(
        _ source: [UInt8], transform: ImageTransform, maxPixels: Int = defaultMaxPixels,
        timeLimit: Double = defaultTimeLimit
    ) -> Result<RenderedImage, FetchError> {
        let sourceType = ImageProbe.probe(source)?.mimeType ?? ""
        return renderAny(source, transform: transform, maxPixels: maxPixels, timeLimit: timeLimit).map { image in
            var image = image
            image.sourceType = sourceType
            return image
        }
    }

    /// `render` but for `sourceType` (an ICO's PNG entry comes back here).
    private static func renderAny(
        _ source: [UInt8], transform: ImageTransform, maxPixels: Int, timeLimit: Double
    ) -> Result<RenderedImage, FetchError> {
        guard let info = ImageProbe.probe(source) else {
            return .failure(.image(.unsupportedImage, "the bytes are not an image (whatever the Content-Type said)."))
        }
        if let problem = checkPixels(info.width, info.height, pages: 1, maxPixels: maxPixels) { return .failure(problem) }
        let output = OutputFormat.choose(for: info.mimeType, requested: transform.format)
        if OutputFormat.needsHEIF(info.mimeType) || output.needsHEIF, case .failure(let error) = Vips.loadHEIF() {
            return .failure(failure(error))
        }
        let background = output.hasAlpha ? nil : transform.background
        switch info.mimeType {
        case "image/x-icon":
            switch IconFile.largestEntry(source) {
            case .png(let png)?:
                return renderAny(png, transform: transform, maxPixels: maxPixels, timeLimit: timeLimit)
            case .dib(let dib)?:
                return renderDIB(dib, isIcon: true, transform: transform, output: output, maxPixels: maxPixels, timeLimit: timeLimit)
            case nil:
                return .failure(.image(.decodeFailed, "the icon file is cut or malformed."))
            }
        case "image/bmp":
            return renderDIB(
                Array(source.dropFirst(14)), isIcon: false, transform: transform, output: output, maxPixels: maxPixels,
                timeLimit: timeLimit)
        case "image/svg+xml":
            switch SVGSanitizer.sanitize(source) {
            case .success(let svg) where transform.format == .original && transform.width == nil && transform.height == nil:
                return sanitizedSVG(svg)
            case .success(let svg):
                return thumbnail(
                    svg, loadOptions: "fail_on=truncated", toSRGB: false, transform: transform, output: output,
                    background: background, timeLimit: timeLimit)
            case .failure(let refusal):
                return .failure(.image(.unsupportedImage, "the SVG was refused (\(refusal)): it could make the renderer read other files."))
            }
        case "image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/heic", "image/heif":
            // libvips's own reading of the header: the probe above may not
            // have found a size, and an animation's frames count too.
            let header: ImageHeader
            switch Vips.header(source) {
            case .success(let read): header = read
            case .failure(let error): return .failure(Self.failure(error))
            }
            let pages = output.allPages ? max(1, header.pages) : 1
            if let problem = checkPixels(header.width, header.height, pages: pages, maxPixels: maxPixels) { return .failure(problem) }
            let loadOptions = output.allPages ? "fail_on=truncated,n=-1" : "fail_on=truncated"
            return thumbnail(
                source, loadOptions: loadOptions, toSRGB: header.hasProfile, transform: transform, output: output,
                background: background, timeLimit: timeLimit)
        default:
            return .failure(.image(.unsupportedImage, "\(info.mimeType) images are not supported."))
        }
    }

    /// Nil when `width × height × pages` is within the cap; unknown sizes pass (libvips's header read follows).
    static func checkPixels(_ width: Int?, _ height: Int?, pages: Int, maxPixels: Int) -> FetchError? {
        guard let width, let height else { return nil }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        let (total, overflowPages) = area.multipliedReportingOverflow(by: pages)
        guard overflow || overflowPages || total > maxPixels else { return nil }
        return .image(.imageTooLarge, "the image declares \(width)×\(height) pixels\(pages > 1 ? " × \(pages) frames" : ""), more than the cap of \(maxPixels).")
    }

    private static func thumbnail(
        _ bytes: [UInt8], loadOptions: String, toSRGB: Bool, transform: ImageTransform, output: OutputFormat,
        background: RGB?, timeLimit: Double
    ) -> Result<RenderedImage, FetchError> {
        Vips.thumbnail(bytes, loadOptions: loadOptions, box: transform.box, toSRGB: toSRGB, background: background,
                       suffix: output.suffix(quality: transform.quality), timeLimit: timeLimit)
            .map { RenderedImage(bytes: $0.bytes, type: output.mimeType, width: $0.width, height: $0.height, sourceType: "") }
            .mapError(failure)
    }

    private static func renderDIB(
        _ bytes: [UInt8], isIcon: Bool, transform: ImageTransform, output: OutputFormat, maxPixels: Int,
        timeLimit: Double
    ) -> Result<RenderedImage, FetchError> {
        guard let pixels = DIBDecoder.decode(bytes, isIcon: isIcon, maxPixels: maxPixels) else {
            return .failure(.image(.decodeFailed, "the bitmap is cut, compressed or malformed."))
        }
        return Vips.thumbnail(
            rgba: pixels.rgba, width: pixels.width, height: pixels.height, box: transform.box,
            background: output.hasAlpha ? nil : transform.background, suffix: output.suffix(quality: transform.quality),
            timeLimit: timeLimit)
            .map { RenderedImage(bytes: $0.bytes, type: output.mimeType, width: $0.width, height: $0.height, sourceType: "") }
            .mapError(failure)
    }

    /// `format: "original"` with no size for an SVG: the sanitised SVG
    /// itself (libvips writes no SVG, and a vector image needs no resizing),
    /// its size as librsvg reads it (its width and height, else its viewBox).
    private static func sanitizedSVG(_ svg: [UInt8]) -> Result<RenderedImage, FetchError> {
        Vips.header(svg)
            .map { RenderedImage(bytes: svg, type: "image/svg+xml", width: $0.width, height: $0.height, sourceType: "") }
            .mapError(failure)
    }

    static func failure(_ error: ImageError) -> FetchError {
        switch error.kind {
        case .unavailable: .image(.decodeFailed, "libvips is not available: \(error.detail)")
        case .decode, .encode: .image(.decodeFailed, "the image could not be decoded: \(error.detail)")
        case .timedOut: .image(.decodeFailed, "decoding took too long (\(error.detail)).")
        }
    }
}
