/// Decodes the uncompressed device-independent bitmaps found in ICO entries
/// and BMP files (1, 4, 8, 24 and 32 bits per pixel) to 8-bit RGBA, top row
/// first. libvips has no BMP loader of its own (it would use ImageMagick).
enum DIBDecoder {
    struct Pixels: Equatable {
        var rgba: [UInt8]
        var width: Int
        var height: Int
    }

    /// `bytes` starts at the BITMAPINFOHEADER. In an icon the header's
    /// height counts the colour rows and the AND mask's rows (twice the
    /// image), and the mask gives transparency to images without alpha.
    static func decode(_ bytes: [UInt8], isIcon: Bool, maxPixels: Int) -> Pixels? {
        let data = ByteView(bytes)
        guard let headerSize = data.u32le(0), headerSize >= 40, headerSize <= 124,
              let rawWidth = data.u32le(4), let rawHeight = data.u32le(8),
              let bits = data.u16le(14), let compression = data.u32le(16) else { return nil }
        let width = Int(Int32(truncatingIfNeeded: UInt32(rawWidth)))
        let signedHeight = Int(Int32(truncatingIfNeeded: UInt32(rawHeight)))
        let topDown = signedHeight < 0
        let height = isIcon ? abs(signedHeight) / 2 : abs(signedHeight)
        // BI_RGB only (and BI_BITFIELDS for 32 bits in the usual BGRA layout).
        guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, width * height <= maxPixels,
              compression == 0 || (compression == 3 && bits == 32), [1, 4, 8, 24, 32].contains(bits) else { return nil }
        let paletteStart = headerSize + (compression == 3 && headerSize == 40 ? 12 : 0)
        let paletteCount = bits <= 8 ? (data.u32le(32).flatMap { $0 > 0 && $0 <= 256 ? $0 : nil } ?? (1 << bits)) : 0
        let pixelStart = paletteStart + paletteCount * 4
        let rowBytes = (width * bits + 31) / 32 * 4
        guard pixelStart + rowBytes * height <= bytes.count else { return nil }

        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        var sawAlpha = false
        for row in 0..<height {
            let sourceRow = topDown ? row : height - 1 - row
            let rowStart = pixelStart + sourceRow * rowBytes
            for column in 0..<width {
                let out = (row * width + column) * 4
                var colour: (b: UInt8, g: UInt8, r: UInt8, a: UInt8)
                switch bits {
                case 32:
                    let at = rowStart + column * 4
                    colour = (bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3])
                    if colour.a != 0 { sawAlpha = true }
                case 24:
                    let at = rowStart + column * 3
                    colour = (bytes[at], bytes[at + 1], bytes[at + 2], 255)
                default:
                    let bitOffset = column * bits
                    let byte = Int(bytes[rowStart + bitOffset / 8])
                    let index = (byte >> (8 - bits - bitOffset % 8)) & ((1 << bits) - 1)
                    let entry = paletteStart + index * 4
                    guard index < paletteCount else { return nil }
                    colour = (bytes[entry], bytes[entry + 1], bytes[entry + 2], 255)
                }
                rgba[out] = colour.r
                rgba[out + 1] = colour.g
                rgba[out + 2] = colour.b
                rgba[out + 3] = colour.a
            }
        }
        // A 32-bit image whose alpha bytes are all zero means "no alpha".
        if bits == 32 && !sawAlpha {
            for index in stride(from: 3, to: rgba.count, by: 4) { rgba[index] = 255 }
        }
        if isIcon && !(bits == 32 && sawAlpha) {
            applyMask(bytes, start: pixelStart + rowBytes * height, width: width, height: height, topDown: topDown, rgba: &rgba)
        }
        return Pixels(rgba: rgba, width: width, height: height)
    }

    /// An icon's 1-bit AND mask: a set bit makes the pixel transparent.
    private static func applyMask(_ bytes: [UInt8], start: Int, width: Int, height: Int, topDown: Bool, rgba: inout [UInt8]) {
        let rowBytes = (width + 31) / 32 * 4
        guard start + rowBytes * height <= bytes.count else { return }
        for row in 0..<height {
            let rowStart = start + (topDown ? row : height - 1 - row) * rowBytes
            for column in 0..<width where bytes[rowStart + column / 8] & (0x80 >> UInt8(column % 8)) != 0 {
                rgba[(row * width + column) * 4 + 3] = 0
            }
        }
    }
}
