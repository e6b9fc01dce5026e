import FoundationEssentials
import Images
import LinkPeek
import LinkPeekProtocol

extension GetMediaParams {
    /// The engine's transform for these params, which must have passed
    /// `validationError()` (out-of-range numbers then fall back to defaults).
    public var transform: ImageTransform {
        ImageTransform(
            kind: kind.flatMap(ImageTransform.Kind.init(rawValue:)) ?? .auto,
            width: width.flatMap(ParamRanges.imageSide.integer),
            height: height.flatMap(ParamRanges.imageSide.integer),
            fit: fit.flatMap(ImageTransform.Fit.init(rawValue:)) ?? .contain,
            dpr: dpr.flatMap { ParamRanges.dpr.check($0, field: "") == nil ? $0 : nil } ?? 1,
            format: format.flatMap(ImageTransform.Format.init(rawValue:)),
            quality: quality.flatMap(ParamRanges.quality.integer) ?? 80,
            background: background.flatMap(RGB.init(hex:)) ?? .white)
    }
}

extension GetMediaResult {
    public init(_ image: MediaImage) {
        self.init(
            url: image.url, sourceURL: image.sourceURL, type: image.type, sourceType: image.sourceType,
            width: image.width, height: image.height, bytes: image.bytes.count,
            data: Data(image.bytes).base64EncodedString())
    }
}
