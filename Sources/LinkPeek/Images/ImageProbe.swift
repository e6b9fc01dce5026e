/// What an image's first bytes say about it.
public struct ImageInfo: Sendable, Equatable {
    /// The MIME type the bytes show ("image/png", "image/svg+xml", ...).
    public var mimeType: String
    /// Pixel width, when the header bytes were enough to read it.
    public var width: Int?
    /// Pixel height, when the header bytes were enough to read it.
    public var height: Int?

    public init(mimeType: String, width: Int? = nil, height: Int? = nil) {
        self.mimeType = mimeType
        self.width = width
        self.height = height
    }
}

/// Reads an image's type and pixel size from its header bytes, without
/// decoding it: enough for a preview's `width`/`height` after fetching only
/// the first kilobytes of an icon or image.
///
/// Works on a prefix: when the bytes show the format but end before the
/// size, the type comes back without it. Garbage and truncated input give
/// nil or a partial answer, never a crash (every read is bounds-checked).
public enum ImageProbe {
    /// The type and, when present in `bytes`, the pixel size of an image in
    /// PNG, JPEG, GIF, WebP, ICO, BMP, SVG, AVIF or HEIF; nil when `bytes`
    /// is none of them.
    public static func probe(_ bytes: [UInt8]) -> ImageInfo? {
        let data = ByteView(bytes)
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return png(data) }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) { return jpeg(data) }
        if data.starts(with: Array("GIF87a".utf8)) || data.starts(with: Array("GIF89a".utf8)) { return gif(data) }
        if data.starts(with: Array("RIFF".utf8)), data.matches(Array("WEBP".utf8), at: 8) { return webp(data) }
        if data.starts(with: [0x00, 0x00, 0x01, 0x00]) { return ico(data) }
        if data.starts(with: Array("BM".utf8)), let info = bmp(data) { return info }
        if data.matches(Array("ftyp".utf8), at: 4), let info = isoImage(data) { return info }
        return svg(bytes)
    }
}

/// Bounds-checked reads over a byte array: every accessor returns nil past
/// the end, so parsers of truncated input simply stop.
struct ByteView {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var count: Int { bytes.count }

    func starts(with prefix: [UInt8]) -> Bool { matches(prefix, at: 0) }

    func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + pattern.count <= bytes.count else { return false }
        return bytes[offset..<(offset + pattern.count)].elementsEqual(pattern)
    }

    func u8(_ offset: Int) -> Int? {
        offset >= 0 && offset < bytes.count ? Int(bytes[offset]) : nil
    }

    func u16be(_ offset: Int) -> Int? {
        guard let high = u8(offset), let low = u8(offset + 1) else { return nil }
        return high << 8 | low
    }

    func u16le(_ offset: Int) -> Int? {
        guard let low = u8(offset), let high = u8(offset + 1) else { return nil }
        return high << 8 | low
    }

    func u24le(_ offset: Int) -> Int? {
        guard let low = u16le(offset), let high = u8(offset + 2) else { return nil }
        return high << 16 | low
    }

    func u32be(_ offset: Int) -> Int? {
        guard let high = u16be(offset), let low = u16be(offset + 2) else { return nil }
        return high << 16 | low
    }

    func u32le(_ offset: Int) -> Int? {
        guard let low = u16le(offset), let high = u16le(offset + 2) else { return nil }
        return high << 16 | low
    }

    func u64be(_ offset: Int) -> Int? {
        guard let high = u32be(offset), let low = u32be(offset + 4), high < 1 << 30 else { return nil }
        return high << 32 | low
    }

    /// Four bytes as ASCII, for box and chunk types.
    func fourCC(_ offset: Int) -> String? {
        guard offset >= 0, offset + 4 <= bytes.count else { return nil }
        return String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
    }
}
