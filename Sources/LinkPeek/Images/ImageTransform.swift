import Images

/// What a caller wants done to an image: which one (for a page), the box,
/// the format. Made from `getMedia` params, the CLI's flags or a `fetch`'s
/// `thumbnail`; every number is already range-checked (`ParamRanges`).
public struct ImageTransform: Sendable, Hashable {
    /// For a page: its preview image, its icon, or the image else the icon.
    public enum Kind: String, Sendable, CaseIterable { case image, icon, auto }
    /// How the image meets a box given by both width and height.
    public enum Fit: String, Sendable, CaseIterable { case contain, cover, fill }
    public enum Format: String, Sendable, CaseIterable { case png, webp, jpeg, avif, original }

    public var kind: Kind
    public var width: Int?
    public var height: Int?
    public var fit: Fit
    /// Device pixel ratio: the box is multiplied by it (capped at `maximumSide`).
    public var dpr: Double
    /// Nil: a JPEG stays JPEG, anything else becomes PNG.
    public var format: Format?
    /// 1–100, for JPEG, WebP and AVIF.
    public var quality: Int
    /// What transparent pixels become in a format without alpha (JPEG).
    public var background: RGB

    public init(
        kind: Kind = .auto, width: Int? = nil, height: Int? = nil, fit: Fit = .contain, dpr: Double = 1,
        format: Format? = nil, quality: Int = 80, background: RGB = .white
    ) {
        self.kind = kind
        self.width = width
        self.height = height
        self.fit = fit
        self.dpr = dpr
        self.format = format
        self.quality = quality
        self.background = background
    }

    /// No output side is longer than this, whatever `width × dpr` asks.
    public static let maximumSide = 2048

    /// The box in output pixels: `width`/`height` times `dpr`, scaled down
    /// together so that neither side passes `maximumSide`. A missing side is
    /// `maximumSide` (so one side given fits that side; `fit` needs both);
    /// neither given keeps the image's own size, never enlarged.
    public var box: ThumbnailBox {
        let cap = Double(Self.maximumSide)
        guard width != nil || height != nil else {
            return ThumbnailBox(width: Self.maximumSide, height: Self.maximumSide, mode: .shrinkOnly)
        }
        // The server range-checks dpr; a library caller's NaN or infinity must not trap below either.
        let dpr = self.dpr.isFinite ? min(max(self.dpr, 1), 4) : 1
        var scaledWidth = width.map { Double($0) * dpr }
        var scaledHeight = height.map { Double($0) * dpr }
        let longest = max(scaledWidth ?? 0, scaledHeight ?? 0)
        if longest > cap {
            scaledWidth = scaledWidth.map { $0 * cap / longest }
            scaledHeight = scaledHeight.map { $0 * cap / longest }
        }
        // Safe: each side is finite and at most `cap` here.
        let side = { (value: Double?) in value.map { min(Self.maximumSide, max(1, Int($0.rounded()))) } ?? Self.maximumSide }
        let bothGiven = width != nil && height != nil
        switch (bothGiven, fit) {
        case (true, .cover): return ThumbnailBox(width: side(scaledWidth), height: side(scaledHeight), cropCentre: true)
        case (true, .fill): return ThumbnailBox(width: side(scaledWidth), height: side(scaledHeight), mode: .fill)
        default: return ThumbnailBox(width: side(scaledWidth), height: side(scaledHeight))
        }
    }

    /// The part of a variant's cache key that says how it was made (the
    /// source URL is the other part). Equal for equal outputs: width 320 at
    /// dpr 2 is the same variant as width 640 at dpr 1.
    /// Quality and background count only where they can change the bytes
    /// (not for PNG; the background not for WebP and AVIF, which keep alpha).
    public var variantKey: String {
        let box = box
        var key = "\(box.width)x\(box.height) \(box.mode) crop=\(box.cropCentre) \(format?.rawValue ?? "auto")"
        if format != .png { key += " q=\(quality)" }
        if format != .png && format != .webp && format != .avif {
            key += " bg=\(background.red),\(background.green),\(background.blue)"
        }
        return key
    }
}

extension RGB {
    /// `#rgb` or `#rrggbb` (the leading `#` optional); nil for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.first == "#" { digits = digits.dropFirst() }
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        let values = digits.compactMap(\.hexDigitValue).map(UInt8.init)
        switch values.count {
        case 3: self.init(red: values[0] * 17, green: values[1] * 17, blue: values[2] * 17)
        case 6: self.init(red: values[0] << 4 | values[1], green: values[2] << 4 | values[3], blue: values[4] << 4 | values[5])
        default: return nil
        }
    }
}
