/// `thumbnail` in `fetch` and `prefetch`: a ready variant of the icon and
/// the image, made as `getMedia` would make it (fit `contain`).
public struct ThumbnailParams: Codable, Sendable, Equatable {
    /// Pixels (`ParamRanges.imageSide`).
    public var width: Double
    public var height: Double?
    /// As `getMedia`'s `format`.
    public var format: String?
    /// `ParamRanges.dpr`.
    public var dpr: Double?

    public init(width: Double, height: Double? = nil, format: String? = nil, dpr: Double? = nil) {
        self.width = width
        self.height = height
        self.format = format
        self.dpr = dpr
    }

    /// The first rule broken, naming the field under `prefix` ("thumbnail.width").
    public func validationError(prefix: String = "thumbnail.") -> String? {
        ParamRanges.imageSide.check(width, field: prefix + "width")
            ?? ParamRanges.imageSide.check(height, field: prefix + "height")
            ?? ParamRanges.dpr.check(dpr, field: prefix + "dpr")
            ?? GetMediaParams.checkChoice(format, GetMediaParams.formats, field: prefix + "format")
    }

    /// The same transform as `getMedia` params.
    public var mediaParams: GetMediaParams {
        GetMediaParams(url: "", width: width, height: height, dpr: dpr, format: format)
    }
}
