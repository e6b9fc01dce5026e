/// Hand-made image headers for the probe and sniffer tests.
enum ImageFixtures {
    static func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
    static func le24(_ value: Int) -> [UInt8] { le16(value) + [UInt8((value >> 16) & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value) + le16(value >> 16) }
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// An ISO base media box: 32-bit size, type, content.
    static func box(_ type: String, _ content: [UInt8]) -> [UInt8] { be32(8 + content.count) + ascii(type) + content }

    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + ascii("IHDR")
        + be32(640) + be32(480) + [8, 6, 0, 0, 0] + [0x12, 0x34, 0x56, 0x78]

    static let jpeg: [UInt8] = [0xFF, 0xD8]
        + [0xFF, 0xE0, 0x00, 0x10] + ascii("JFIF") + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]  // APP0
        + [0xFF, 0xDB, 0x00, 0x04, 0x00, 0x00]  // a (tiny) quantization table segment
        + [0xFF, 0xFF]  // fill bytes are allowed before a marker
        + [0xFF, 0xC2, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x02, 0x80, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]  // progressive SOF2
        + [0xFF, 0xDA, 0x00, 0x08]

    static let gif: [UInt8] = ascii("GIF89a") + le16(320) + le16(200) + [0xF7, 0, 0]

    static func webp(_ chunk: String, _ payload: [UInt8]) -> [UInt8] {
        ascii("RIFF") + le32(4 + 8 + payload.count) + ascii("WEBP") + ascii(chunk) + le32(payload.count) + payload
    }

    static let webpLossy = webp("VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + le16(550) + le16(368) + [0, 0])
    static let webpLossless = webp("VP8L", [0x2F] + le32((400 - 1) | (300 - 1) << 14) + [0])
    static let webpExtended = webp("VP8X", [0x10, 0, 0, 0] + le24(1920 - 1) + le24(1080 - 1))

    static let ico: [UInt8] = [0, 0, 1, 0] + le16(3)
        + [16, 16, 0, 0] + le16(1) + le16(32) + le32(100) + le32(54)
        + [0, 0, 0, 0] + le16(1) + le16(32) + le32(100) + le32(154)  // 0 means 256
        + [48, 48, 0, 0] + le16(1) + le16(32) + le32(100) + le32(254)

    static let bmp: [UInt8] = ascii("BM") + le32(1000) + le32(0) + le32(54) + le32(40)
        + le32(123) + le32(0xFFFF_FFB3) + le16(1) + le16(24)  // height -77: rows top-down

    static func iso(brand: String, compatible: [String], sizes: [(Int, Int)]) -> [UInt8] {
        let ftyp = box("ftyp", ascii(brand) + be32(0) + compatible.flatMap(ascii))
        let properties = sizes.flatMap { box("ispe", be32(0) + be32($0.0) + be32($0.1)) }
        let meta = box("meta", be32(0) + box("hdlr", be32(0) + be32(0) + ascii("pict") + [UInt8](repeating: 0, count: 13))
            + box("iprp", box("ipco", box("colr", ascii("nclx") + [0, 1, 0, 13, 0, 6, 0x80]) + properties)))
        return ftyp + meta + box("mdat", [1, 2, 3])
    }

    static let avif = iso(brand: "avif", compatible: ["avif", "mif1", "miaf"], sizes: [(256, 144), (1200, 675)])
    static let heic = iso(brand: "heic", compatible: ["mif1", "heic"], sizes: [(4032, 3024)])
    static let mp4 = box("ftyp", ascii("isom") + be32(512) + ascii("isomiso2avc1mp41")) + box("free", [])
}
