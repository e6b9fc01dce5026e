internal import CVips

/// An opaque colour, 0–255 per channel.
public struct RGB: Sendable, Equatable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    public static let white = RGB(red: 255, green: 255, blue: 255)
}

/// The box a thumbnail is fitted to, in libvips's terms.
public struct ThumbnailBox: Sendable, Equatable, Hashable {
    public enum Mode: Int32, Sendable {
        /// Inside the box, aspect kept (may enlarge).
        case contain = 0
        /// Inside the box, aspect kept, never enlarged.
        case shrinkOnly = 2
        /// Exactly the box, aspect ignored.
        case fill = 3
    }

    public var width: Int
    public var height: Int
    public var mode: Mode
    /// Fill the whole box, cropping the middle (CSS `object-fit: cover`).
    public var cropCentre: Bool

    public init(width: Int, height: Int, mode: Mode = .contain, cropCentre: Bool = false) {
        self.width = width
        self.height = height
        self.mode = mode
        self.cropCentre = cropCentre
    }

    func options(toSRGB: Bool) -> LPThumbnailOptions {
        LPThumbnailOptions(
            width: Int32(clamping: width), height: Int32(clamping: height), size: mode.rawValue,
            crop: cropCentre ? 1 : 0, to_srgb: toSRGB ? 1 : 0)
    }
}

/// What a header read says.
public struct ImageHeader: Sendable, Equatable {
    public var width: Int
    /// One frame's height.
    public var height: Int
    public var pages: Int
    /// An ICC profile is embedded (the pixels are not necessarily sRGB).
    public var hasProfile: Bool
}

/// An encoded result and its pixel size (one frame's, for an animation).
public struct EncodedImage: Sendable, Equatable {
    public var bytes: [UInt8]
    public var width: Int
    public var height: Int
}

extension Vips {
    /// The header of `bytes`, without decoding pixels.
    public static func header(_ bytes: [UInt8]) -> Result<ImageHeader, ImageError> {
        if case .failure(let error) = start() { return .failure(error) }
        var width: Int32 = 0
        var height: Int32 = 0
        var pages: Int32 = 0
        var hasProfile: Int32 = 0
        let status = bytes.withUnsafeBytes { buffer in
            lp_vips_header(buffer.baseAddress, buffer.count, &width, &height, &pages, &hasProfile)
        }
        guard status == 0 else { return .failure(ImageError(.decode, takeError())) }
        return .success(ImageHeader(width: Int(width), height: Int(height), pages: Int(pages), hasProfile: hasProfile != 0))
    }

    /// `bytes` decoded at reduced scale (shrink-on-load), turned upright by
    /// its EXIF orientation, converted to sRGB from its embedded profile
    /// when `toSRGB` (`ImageHeader.hasProfile`), fitted to `box`, flattened
    /// onto `background` when given and the image has alpha, and encoded as
    /// `suffix` says. `loadOptions` go to the loader ("fail_on=truncated").
    /// Past `timeLimit` seconds of work it stops with `.timedOut`.
    public static func thumbnail(
        _ bytes: [UInt8], loadOptions: String, box: ThumbnailBox, toSRGB: Bool, background: RGB?, suffix: String,
        timeLimit: Double
    ) -> Result<EncodedImage, ImageError> {
        if case .failure(let error) = start() { return .failure(error) }
        var options = box.options(toSRGB: toSRGB)
        // The image reads `bytes` lazily, until it is encoded: all of it
        // happens while the buffer is pinned.
        return bytes.withUnsafeBytes { buffer in
            VipsImage.adopt(lp_vips_thumbnail_buffer(buffer.baseAddress, buffer.count, loadOptions, &options), .decode)
                .flatMap { finish($0, background: background, suffix: suffix, timeLimit: timeLimit) }
        }
    }

    /// The same for 8-bit RGBA pixels (a decoded ICO or BMP).
    public static func thumbnail(
        rgba pixels: [UInt8], width: Int, height: Int, box: ThumbnailBox, background: RGB?, suffix: String,
        timeLimit: Double
    ) -> Result<EncodedImage, ImageError> {
        if case .failure(let error) = start() { return .failure(error) }
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16, pixels.count == width * height * 4 else {
            return .failure(ImageError(.decode, "pixel buffer does not match \(width)x\(height)"))
        }
        var options = box.options(toSRGB: false)
        return pixels.withUnsafeBytes { buffer in
            VipsImage.adopt(lp_vips_image_from_rgba(buffer.baseAddress, buffer.count, Int32(width), Int32(height)), .decode)
                .flatMap { VipsImage.adopt(lp_vips_thumbnail_image($0.pointer, &options), .decode) }
                .flatMap { finish($0, background: background, suffix: suffix, timeLimit: timeLimit) }
        }
    }

    private static func finish(
        _ image: VipsImage, background: RGB?, suffix: String, timeLimit: Double
    ) -> Result<EncodedImage, ImageError> {
        var image = image
        if let background, image.hasAlpha {
            switch image.flattened(onto: background) {
            case .success(let flat): image = flat
            case .failure(let error): return .failure(error)
            }
        }
        let width = image.width
        let height = image.pageHeight
        return image.encoded(suffix, timeLimit: timeLimit).map { EncodedImage(bytes: $0, width: width, height: height) }
    }
}
