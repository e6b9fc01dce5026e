/// `getMedia` (request): an image, or a page's preview image or icon,
/// transformed (size, fit, dpr, format) → `GetMediaResult` with the bytes in base64.
public struct GetMediaParams: Codable, Sendable, Equatable {
    public static let method = "getMedia"

    public var url: String
    /// "image" | "icon" | "auto" (default: the page's image, else its icon).
    public var kind: String?
    /// Pixels (`ParamRanges.imageSide`); numbers, so that `1e300` reaches the range check.
    public var width: Double?
    public var height: Double?
    /// "contain" (default) | "cover" | "fill"; used when both width and height are given.
    public var fit: String?
    /// `ParamRanges.dpr`, default 1.
    public var dpr: Double?
    /// "png" | "webp" | "jpeg" | "avif" | "original"; default: JPEG stays JPEG, the rest PNG.
    public var format: String?
    /// `ParamRanges.quality`, default 80.
    public var quality: Double?
    /// `#rgb` or `#rrggbb`: what transparency becomes in JPEG. Default white.
    public var background: String?
    /// Seconds (`ParamRanges.timeout`).
    public var timeout: Double?
    /// Work-done progress: `downloading`, the page's stages, `image`, `transforming`.
    public var workDoneToken: ProgressToken?
    /// Refused: the result is one image, there is nothing partial to send.
    public var partialResultToken: ProgressToken?

    public init(
        url: String, kind: String? = nil, width: Double? = nil, height: Double? = nil, fit: String? = nil,
        dpr: Double? = nil, format: String? = nil, quality: Double? = nil, background: String? = nil, timeout: Double? = nil,
        workDoneToken: ProgressToken? = nil
    ) {
        self.url = url
        self.kind = kind
        self.width = width
        self.height = height
        self.fit = fit
        self.dpr = dpr
        self.format = format
        self.quality = quality
        self.background = background
        self.timeout = timeout
        self.workDoneToken = workDoneToken
    }

    public static let kinds = ["image", "icon", "auto"]
    public static let fits = ["contain", "cover", "fill"]
    public static let formats = ["png", "webp", "jpeg", "avif", "original"]

    /// The first rule these params break beyond their types, naming the field.
    public func validationError() -> String? {
        ParamRanges.imageSide.check(width, field: "width")
            ?? ParamRanges.imageSide.check(height, field: "height")
            ?? ParamRanges.dpr.check(dpr, field: "dpr")
            ?? ParamRanges.quality.check(quality, field: "quality")
            ?? ParamRanges.timeout.check(timeout, field: "timeout")
            ?? Self.checkChoice(kind, Self.kinds, field: "kind")
            ?? Self.checkChoice(fit, Self.fits, field: "fit")
            ?? Self.checkChoice(format, Self.formats, field: "format")
            ?? Self.checkColour(background, field: "background")
            ?? tokenError()
    }

    private func tokenError() -> String? {
        partialResultToken == nil ? nil : Self.noPartialResults
    }

    static let noPartialResults =
        "partialResultToken is not supported by getMedia: its result is one image (workDoneToken reports progress)"


    static func checkChoice(_ value: String?, _ choices: [String], field: String) -> String? {
        guard let value, !choices.contains(value) else { return nil }
        return "\(field) must be one of \(choices.joined(separator: ", "))"
    }

    /// `#rgb` or `#rrggbb` (LinkPeekProtocol has no dependencies, so the check is spelled out here).
    static func checkColour(_ value: String?, field: String) -> String? {
        guard let value else { return nil }
        let digits = value.hasPrefix("#") ? value.dropFirst() : Substring(value)
        let hex = digits.unicodeScalars.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) || ("A"..."F").contains($0) }
        return hex && (digits.count == 3 || digits.count == 6) ? nil : "\(field) must be a colour like #ffffff"
    }
}

/// The `getMedia` result.
public struct GetMediaResult: Codable, Sendable, Equatable {
    /// The URL asked for.
    public var url: String
    /// The image the result was made from (the page's image or icon, after redirects).
    public var sourceURL: String
    /// MIME type of the result.
    public var type: String
    /// MIME type of the source, as its bytes show it: says what `type` was
    /// made from (`image/bmp` for a BMP given as PNG, `image/svg+xml` …).
    public var sourceType: String
    public var width: Int
    public var height: Int
    /// Size of the result in bytes.
    public var bytes: Int
    /// The result, base64.
    public var data: String

    public init(
        url: String, sourceURL: String, type: String, sourceType: String, width: Int, height: Int, bytes: Int, data: String
    ) {
        self.url = url
        self.sourceURL = sourceURL
        self.type = type
        self.sourceType = sourceType
        self.width = width
        self.height = height
        self.bytes = bytes
        self.data = data
    }
}
