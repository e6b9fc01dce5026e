import Images
import LinkPeekTestSupport
import Testing
@testable import LinkPeek

@Suite struct ImageTransformTests {
    @Test func boxFromWidthHeightFitAndDPR() {
        #expect(ImageTransform(width: 320).box == ThumbnailBox(width: 320, height: 2048))
        #expect(ImageTransform(height: 90).box == ThumbnailBox(width: 2048, height: 90))
        #expect(ImageTransform().box == ThumbnailBox(width: 2048, height: 2048, mode: .shrinkOnly))
        #expect(ImageTransform(width: 300, height: 200, fit: .cover).box == ThumbnailBox(width: 300, height: 200, cropCentre: true))
        #expect(ImageTransform(width: 300, height: 200, fit: .fill).box == ThumbnailBox(width: 300, height: 200, mode: .fill))
        #expect(ImageTransform(width: 300, fit: .cover).box == ThumbnailBox(width: 300, height: 2048), "fit needs both sides")
        #expect(ImageTransform(width: 100, height: 50, dpr: 1.5).box == ThumbnailBox(width: 150, height: 75))
        // The longest side is capped at 2048, the other scaled with it.
        #expect(ImageTransform(width: 1600, height: 800, dpr: 2).box == ThumbnailBox(width: 2048, height: 1024))
        #expect(ImageTransform(width: 2048, height: 1, dpr: 4).box == ThumbnailBox(width: 2048, height: 1))
        // Values the server never passes: no trap.
        #expect(ImageTransform(width: 100, dpr: .nan).box == ThumbnailBox(width: 100, height: 2048))
        #expect(ImageTransform(width: Int.max, dpr: .infinity).box == ThumbnailBox(width: 2048, height: 2048))
        #expect(ImageTransform(width: -5, height: 0).box == ThumbnailBox(width: 1, height: 1))
    }

    @Test func equalOutputsShareAVariantKey() {
        #expect(ImageTransform(width: 320, dpr: 2).variantKey == ImageTransform(width: 640).variantKey)
        #expect(ImageTransform(width: 320).variantKey != ImageTransform(width: 320, format: .webp).variantKey)
        #expect(ImageTransform(width: 320).variantKey != ImageTransform(width: 320, background: RGB(red: 0, green: 0, blue: 0)).variantKey)
        // PNG ignores quality and background, WebP the background.
        #expect(ImageTransform(width: 320, format: .png, quality: 50).variantKey == ImageTransform(width: 320, format: .png).variantKey)
        #expect(ImageTransform(width: 320, format: .webp, background: RGB(red: 0, green: 0, blue: 0)).variantKey
                == ImageTransform(width: 320, format: .webp).variantKey)
        #expect(ImageTransform(width: 320, format: .webp, quality: 50).variantKey != ImageTransform(width: 320, format: .webp).variantKey)
    }

    @Test func hexColours() {
        #expect(RGB(hex: "#fff") == .white)
        #expect(RGB(hex: "00ff80") == RGB(red: 0, green: 255, blue: 128))
        for bad in ["", "#", "#ff", "#fffff", "red", "#gggggg", "#ffffff0"] { #expect(RGB(hex: bad) == nil, "\(bad)") }
    }

    @Test func byteLRUEvictsOldestByCost() {
        var lru = LRUMap<Int>(capacity: 10)
        lru.insert(1, cost: 4, for: "a")
        lru.insert(2, cost: 4, for: "b")
        #expect(lru.value(for: "a") == 1)       // a is now the most recent
        lru.insert(3, cost: 4, for: "c")        // 12 > 10: b goes
        #expect(lru.value(for: "b") == nil && lru.value(for: "a") == 1 && lru.value(for: "c") == 3)
        #expect(lru.totalCost == 8)
        lru.insert(4, cost: 11, for: "d")       // larger than the whole capacity: not kept
        #expect(lru.value(for: "d") == nil && lru.totalCost == 8)
        lru.insert(5, cost: 2, for: "a")        // replacing counts the new cost only
        #expect(lru.totalCost == 6 && lru.count == 2)
    }

    @Test func iconLargestEntryAndBitmaps() {
        // Two entries: a 2×2 32-bit bitmap and a 1×1 "PNG" (only its signature matters here).
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var dib: [UInt8] = le32(40) + le32(2) + le32(4) + [1, 0, 32, 0] + [UInt8](repeating: 0, count: 24)
        dib += [1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255] + [UInt8](repeating: 0, count: 8)
        let header: [UInt8] = [0, 0, 1, 0, 2, 0]
        let first = 6 + 32
        let entry1: [UInt8] = [1, 1, 0, 0, 1, 0, 32, 0] + le32(png.count) + le32(first)
        let entry2: [UInt8] = [2, 2, 0, 0, 1, 0, 32, 0] + le32(dib.count) + le32(first + png.count)
        let file = header + entry1 + entry2 + png + dib
        #expect(IconFile.largestEntry(file) == .dib(dib))
        let pixels = DIBDecoder.decode(dib, isIcon: true, maxPixels: 100)
        // Bottom-up rows: the first stored row is the bottom one. BGRA → RGBA.
        #expect(pixels == DIBDecoder.Pixels(rgba: [9, 8, 7, 255, 12, 11, 10, 255, 3, 2, 1, 255, 6, 5, 4, 255], width: 2, height: 2))
        #expect(DIBDecoder.decode(dib, isIcon: true, maxPixels: 3) == nil, "above the pixel cap")
        #expect(DIBDecoder.decode(Array(dib.prefix(50)), isIcon: true, maxPixels: 100) == nil, "cut")
        // An entry pointing past the end is skipped; none left means nil.
        let broken: [UInt8] = [0, 0, 1, 0, 1, 0] + [1, 1, 0, 0, 1, 0, 32, 0] + le32(99) + le32(9999)
        #expect(IconFile.largestEntry(broken) == nil)
    }

    func le32(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}

/// Seeded mutations of icon files and bitmaps: answers or nil, never a trap.
@Suite struct IconFuzzTests {
    @Test func mutatedIconsNeverTrap() {
        var generator = SeededGenerator(seed: SeededGenerator.seed(default: 0x1C0_F11E))
        let le32 = { (value: Int) in (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        var dib: [UInt8] = le32(40) + le32(4) + le32(8) + [1, 0, 8, 0] + [UInt8](repeating: 0, count: 24)
        dib += (0..<256).flatMap { [UInt8($0), UInt8(255 - $0), 7, 0] }       // an 8-bit palette
        dib += (0..<16).map { UInt8($0 * 13 % 256) } + [UInt8](repeating: 0, count: 16)
        let entry: [UInt8] = [4, 4, 0, 0, 1, 0, 8, 0] + le32(dib.count) + le32(22)
        let icon: [UInt8] = [0, 0, 1, 0, 1, 0] + entry + dib
        #expect(IconFile.largestEntry(icon) == .dib(dib))
        #expect(DIBDecoder.decode(dib, isIcon: true, maxPixels: 100)?.width == 4)
        for _ in 0..<3000 {
            var bytes = icon
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) { bytes.removeLast(Int.random(in: 0..<bytes.count, using: &generator)) }
            _ = ImageProbe.probe(bytes)
            if case .dib(let entryBytes)? = IconFile.largestEntry(bytes) {
                if let pixels = DIBDecoder.decode(entryBytes, isIcon: true, maxPixels: 1 << 20) {
                    #expect(pixels.rgba.count == pixels.width * pixels.height * 4)
                }
            }
            _ = DIBDecoder.decode(Array(bytes.dropFirst(22)), isIcon: false, maxPixels: 1 << 20)
        }
    }
}
