/// The format a variant is written in.
struct OutputFormat: Equatable {
    var mimeType: String
    /// libvips's suffix, before its options.
    var extensionName: String
    var hasAlpha: Bool
    var lossy: Bool
    /// Every frame of an animation (only for `format: "original"`).
    var allPages = false

    static let png = OutputFormat(mimeType: "image/png", extensionName: ".png", hasAlpha: true, lossy: false)
    static let jpeg = OutputFormat(mimeType: "image/jpeg", extensionName: ".jpg", hasAlpha: false, lossy: true)
    static let webp = OutputFormat(mimeType: "image/webp", extensionName: ".webp", hasAlpha: true, lossy: true)
    static let avif = OutputFormat(mimeType: "image/avif", extensionName: ".avif", hasAlpha: true, lossy: true)
    static let gif = OutputFormat(mimeType: "image/gif", extensionName: ".gif", hasAlpha: true, lossy: false)

    /// Nil asks for the default: a JPEG stays JPEG, anything else becomes
    /// PNG. `original` keeps the source's format (and an animation's
    /// frames) where libvips writes it; ICO (its chosen entry), BMP, HEIC
    /// and an SVG that is resized become PNG (an SVG that is not resized
    /// stays the sanitised SVG: `ImagePipeline`).
    static func choose(for sourceType: String, requested: ImageTransform.Format?) -> OutputFormat {
        switch requested {
        case .png: return .png
        case .jpeg: return .jpeg
        case .webp: return .webp
        case .avif: return .avif
        case nil: return sourceType == "image/jpeg" ? .jpeg : .png
        case .original:
            switch sourceType {
            case "image/jpeg": return .jpeg
            case "image/gif": return with(.gif, allPages: true)
            case "image/webp": return with(.webp, allPages: true)
            case "image/avif": return .avif
            default: return .png
            }
        }
    }

    /// libvips reads and writes these through its HEIF module, loaded on first use.
    static func needsHEIF(_ mimeType: String) -> Bool {
        ["image/avif", "image/heic", "image/heif"].contains(mimeType)
    }

    var needsHEIF: Bool { Self.needsHEIF(mimeType) }

    private static func with(_ format: OutputFormat, allPages: Bool) -> OutputFormat {
        var format = format
        format.allPages = allPages
        return format
    }

    /// libvips's save suffix with options: metadata stripped (EXIF, GPS, XMP, ICC), quality for lossy formats.
    func suffix(quality: Int) -> String {
        lossy ? "\(extensionName)[Q=\(quality),strip]" : "\(extensionName)[strip]"
    }
}
