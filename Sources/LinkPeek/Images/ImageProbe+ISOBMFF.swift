/// AVIF and HEIF: ISO base media files whose `ftyp` brands say "image",
/// sized by the `ispe` (image spatial extents) property in `meta/iprp/ipco`.
extension ImageProbe {
    /// One box of an ISO base media file: its type and the byte ranges of
    /// its content (clipped to the bytes available).
    struct Box {
        var type: String
        var contentStart: Int
        var end: Int
        /// False when the bytes end before the box does.
        var complete: Bool
    }

    /// The boxes laid out between `start` and `end`; stops at the first
    /// malformed header.
    static func boxes(in data: ByteView, from start: Int, to end: Int) -> [Box] {
        var result: [Box] = []
        var offset = start
        while offset + 8 <= end, result.count < 512 {
            guard let size32 = data.u32be(offset), let type = data.fourCC(offset + 4) else { break }
            var header = 8
            var size = size32
            if size32 == 1 {
                guard let large = data.u64be(offset + 8) else { break }
                size = large
                header = 16
            } else if size32 == 0 {
                size = end - offset  // The box runs to the end of the file.
            }
            guard size >= header else { break }
            result.append(Box(type: type, contentStart: offset + header, end: min(offset + size, end), complete: offset + size <= end))
            guard offset + size < end else { break }
            offset += size
        }
        return result
    }

    /// The brands of an `ftyp` box at offset 0: the major brand first.
    static func brands(_ data: ByteView) -> [String] {
        guard data.fourCC(4) == "ftyp", let size = data.u32be(0), let major = data.fourCC(8) else { return [] }
        var brands = [major]
        var offset = 16
        while offset + 4 <= min(size, data.count, 256) {
            if let brand = data.fourCC(offset) { brands.append(brand) }
            offset += 4
        }
        return brands
    }

    static func isoImage(_ data: ByteView) -> ImageInfo? {
        let brands = brands(data)
        let mimeType: String
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) {
            mimeType = "image/avif"
        } else if brands.contains(where: { ["heic", "heix", "heim", "heis", "hevc", "hevx"].contains($0) }) {
            mimeType = "image/heic"
        } else if brands.contains(where: { $0 == "mif1" || $0 == "msf1" }) {
            mimeType = "image/heif"
        } else {
            return nil
        }
        // A file holds several `ispe`: the primary image's, thumbnails' and
        // grid tiles'. The primary (or the grid it is made of) is the largest.
        var best: (width: Int, height: Int)?
        for meta in boxes(in: data, from: 0, to: data.count) where meta.type == "meta" {
            // `meta` is a full box: 4 bytes of version and flags come first.
            for iprp in boxes(in: data, from: meta.contentStart + 4, to: meta.end) where iprp.type == "iprp" {
                // Only a whole property container: a cut one may lack the largest size.
                for ipco in boxes(in: data, from: iprp.contentStart, to: iprp.end) where ipco.type == "ipco" && ipco.complete {
                    for ispe in boxes(in: data, from: ipco.contentStart, to: ipco.end) where ispe.type == "ispe" {
                        guard let width = data.u32be(ispe.contentStart + 4),
                              let height = data.u32be(ispe.contentStart + 8) else { continue }
                        // Each side is a u32 from the file: their product can pass Int.max.
                        if best.map({ area(width, height) > area($0.width, $0.height) }) ?? true { best = (width, height) }
                    }
                }
            }
        }
        return info(mimeType, best?.width, best?.height)
    }

    /// `width × height`, saturating at `Int.max` instead of trapping.
    static func area(_ width: Int, _ height: Int) -> Int {
        let (product, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : product
    }
}
