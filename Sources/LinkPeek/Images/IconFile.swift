/// An ICO file's largest entry, which libvips cannot read itself (its ICO
/// support goes through ImageMagick, which linkpeek blocks): modern entries
/// are whole PNG files, older ones a headerless BMP (`DIBDecoder`).
enum IconFile {
    enum Entry: Equatable {
        case png([UInt8])
        case dib([UInt8])
    }

    /// The entry with the most pixels (a size byte of 0 means 256), with
    /// its bytes; nil when the directory or the entry is cut or out of range.
    static func largestEntry(_ bytes: [UInt8]) -> Entry? {
        let data = ByteView(bytes)
        guard data.starts(with: [0, 0, 1, 0]), let count = data.u16le(4), count > 0 else { return nil }
        var best: (pixels: Int, offset: Int, length: Int)?
        for index in 0..<count {
            let entry = 6 + index * 16
            guard let width = data.u8(entry), let height = data.u8(entry + 1),
                  let length = data.u32le(entry + 8), let offset = data.u32le(entry + 12) else { return nil }
            let pixels = (width == 0 ? 256 : width) * (height == 0 ? 256 : height)
            guard length > 0, offset <= bytes.count, length <= bytes.count - offset else { continue }
            if best.map({ pixels > $0.pixels }) ?? true { best = (pixels, offset, length) }
        }
        guard let best else { return nil }
        let slice = Array(bytes[best.offset..<(best.offset + best.length)])
        return slice.starts(with: [0x89, 0x50, 0x4E, 0x47]) ? .png(slice) : .dib(slice)
    }
}
