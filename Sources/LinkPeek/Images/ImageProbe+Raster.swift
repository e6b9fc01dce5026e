/// Header parsers for the raster formats with fixed or chunked headers.
extension ImageProbe {
    /// Width and height only when both are positive; a zero means "unknown".
    static func info(_ mimeType: String, _ width: Int?, _ height: Int?) -> ImageInfo {
        guard let width, let height, width > 0, height > 0 else { return ImageInfo(mimeType: mimeType) }
        return ImageInfo(mimeType: mimeType, width: width, height: height)
    }

    static func png(_ data: ByteView) -> ImageInfo {
        // IHDR comes first, except in Apple's CgBI variant where a CgBI chunk
        // (4 bytes of data) precedes it.
        var ihdr = 8
        if data.fourCC(12) == "CgBI", let length = data.u32be(8) { ihdr = 8 + 12 + length }
        guard data.fourCC(ihdr + 4) == "IHDR" else { return ImageInfo(mimeType: "image/png") }
        return info("image/png", data.u32be(ihdr + 8), data.u32be(ihdr + 12))
    }

    static func gif(_ data: ByteView) -> ImageInfo {
        info("image/gif", data.u16le(6), data.u16le(8))
    }

    /// Walks the JPEG marker segments up to the first start-of-frame.
    static func jpeg(_ data: ByteView) -> ImageInfo {
        var offset = 2
        while let prefix = data.u8(offset) {
            guard prefix == 0xFF else { break }
            guard let marker = data.u8(offset + 1) else { break }
            switch marker {
            case 0xFF:
                offset += 1  // A fill byte before the marker.
                continue
            case 0x01, 0xD0...0xD8:
                offset += 2  // Markers without a length.
                continue
            case 0xD9, 0xDA:
                return ImageInfo(mimeType: "image/jpeg")  // End of image or scan data: no frame header.
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                // SOFn: length, precision, then height and width.
                return info("image/jpeg", data.u16be(offset + 7), data.u16be(offset + 5))
            default:
                guard let length = data.u16be(offset + 2), length >= 2 else { break }
                offset += 2 + length
                continue
            }
            break
        }
        return ImageInfo(mimeType: "image/jpeg")
    }

    static func webp(_ data: ByteView) -> ImageInfo {
        switch data.fourCC(12) {
        case "VP8 ":
            // A key frame: 3-byte frame tag, start code 9D 01 2A, then 14-bit sizes.
            guard data.matches([0x9D, 0x01, 0x2A], at: 23),
                  let width = data.u16le(26), let height = data.u16le(28) else { break }
            return info("image/webp", width & 0x3FFF, height & 0x3FFF)
        case "VP8L":
            guard data.u8(20) == 0x2F, let bits = data.u32le(21) else { break }
            return info("image/webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard let width = data.u24le(24), let height = data.u24le(27) else { break }
            return info("image/webp", width + 1, height + 1)
        default:
            break
        }
        return ImageInfo(mimeType: "image/webp")
    }

    /// The largest image in an icon directory (a size byte of 0 means 256),
    /// sized only when the whole directory is there: a cut one may lack it.
    static func ico(_ data: ByteView) -> ImageInfo? {
        guard let count = data.u16le(4), count > 0 else { return nil }
        guard data.count >= 6 + count * 16 else { return ImageInfo(mimeType: "image/x-icon") }
        var best: (width: Int, height: Int)?
        for index in 0..<count {
            let entry = 6 + index * 16
            guard let width = data.u8(entry), let height = data.u8(entry + 1) else { break }
            let size = (width == 0 ? 256 : width, height == 0 ? 256 : height)
            if best.map({ size.0 * size.1 > $0.width * $0.height }) ?? true { best = size }
        }
        return info("image/x-icon", best?.width, best?.height)
    }

    static func bmp(_ data: ByteView) -> ImageInfo? {
        guard let headerSize = data.u32le(14) else {
            return data.count >= 6 ? ImageInfo(mimeType: "image/bmp") : nil
        }
        // The DIB header is 12 bytes (OS/2, 16-bit sizes) or 40 or more.
        if headerSize == 12 { return info("image/bmp", data.u16le(18), data.u16le(20)) }
        guard headerSize >= 40 && headerSize <= 124 else { return nil }
        guard let width = data.u32le(18), let height = data.u32le(22) else { return ImageInfo(mimeType: "image/bmp") }
        // Heights are signed: negative means the rows are stored top-down.
        let signedHeight = Int(Int32(truncatingIfNeeded: UInt32(height)))
        return info("image/bmp", Int(Int32(truncatingIfNeeded: UInt32(width))), abs(signedHeight))
    }
}
