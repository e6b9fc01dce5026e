import Images
import Testing

/// `Vips` on images made here: a header read, thumbnails in each box mode,
/// flattening onto a background, and the errors of bytes that are no image.
/// Needs libvips (the Makefile's install list has it).
@Suite(.serialized) struct VipsTests {
    /// An RGBA gradient, `width`×`height`, with the given alpha everywhere.
    static func pixels(width: Int, height: Int, alpha: UInt8 = 255) -> [UInt8] {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 128, alpha]
            }
        }
        return pixels
    }

    /// The pixels encoded as PNG at their own size (a fill box of the same size).
    static func png(width: Int, height: Int, alpha: UInt8 = 255) throws -> [UInt8] {
        let box = ThumbnailBox(width: width, height: height, mode: .fill)
        let encoded = try Vips.thumbnail(
            rgba: pixels(width: width, height: height, alpha: alpha), width: width, height: height, box: box,
            background: nil, suffix: ".png", timeLimit: 10
        ).get()
        #expect(encoded.width == width && encoded.height == height)
        return encoded.bytes
    }

    static func thumbnail(_ bytes: [UInt8], _ box: ThumbnailBox, background: RGB? = nil, suffix: String = ".png")
        throws -> EncodedImage
    {
        try Vips.thumbnail(
            bytes, loadOptions: "fail_on=truncated", box: box, toSRGB: false, background: background, suffix: suffix,
            timeLimit: 10
        ).get()
    }

    @Test func headerReadsTheSizeOfAGeneratedPNG() throws {
        let png = try Self.png(width: 120, height: 80)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let header = try Vips.header(png).get()
        #expect((header.width, header.height, header.pages, header.hasProfile) == (120, 80, 1, false))
    }

    @Test func containKeepsTheAspectAndMayEnlarge() throws {
        let png = try Self.png(width: 120, height: 80)
        let smaller = try Self.thumbnail(png, ThumbnailBox(width: 60, height: 60))
        #expect((smaller.width, smaller.height) == (60, 40))
        #expect(try Vips.header(smaller.bytes).get().width == 60)
        let larger = try Self.thumbnail(png, ThumbnailBox(width: 240, height: 240))
        #expect((larger.width, larger.height) == (240, 160))
    }

    @Test func shrinkOnlyNeverEnlarges() throws {
        let png = try Self.png(width: 120, height: 80)
        let same = try Self.thumbnail(png, ThumbnailBox(width: 240, height: 240, mode: .shrinkOnly))
        #expect((same.width, same.height) == (120, 80))
        let smaller = try Self.thumbnail(png, ThumbnailBox(width: 30, height: 30, mode: .shrinkOnly))
        #expect((smaller.width, smaller.height) == (30, 20))
    }

    @Test func fillAndCropGiveExactlyTheBox() throws {
        let png = try Self.png(width: 120, height: 80)
        let filled = try Self.thumbnail(png, ThumbnailBox(width: 50, height: 50, mode: .fill))
        #expect((filled.width, filled.height) == (50, 50))
        let cropped = try Self.thumbnail(png, ThumbnailBox(width: 40, height: 30, cropCentre: true))
        #expect((cropped.width, cropped.height) == (40, 30))
        let header = try Vips.header(cropped.bytes).get()
        #expect((header.width, header.height) == (40, 30))
    }

    @Test func transparentPixelsAreFlattenedOntoTheBackground() throws {
        let png = try Self.png(width: 16, height: 16, alpha: 0)
        // PPM has no alpha and a fixed layout: "P6\n16 16\n255\n" then RGB triples.
        let red = RGB(red: 255, green: 0, blue: 0)
        let flat = try Self.thumbnail(png, ThumbnailBox(width: 16, height: 16), background: red, suffix: ".ppm")
        let pixels = Array(flat.bytes.suffix(16 * 16 * 3))
        #expect(pixels.count == 16 * 16 * 3)
        #expect(stride(from: 0, to: pixels.count, by: 3).allSatisfy { pixels[$0] == 255 && pixels[$0 + 1] == 0 && pixels[$0 + 2] == 0 })
    }

    @Test func bytesThatAreNoImageAreADecodeError() throws {
        let garbage = Array("not an image at all, just text".utf8)
        #expect(throws: ImageError.self) { try Vips.header(garbage).get() }
        if case .failure(let error) = Vips.header(garbage) {
            #expect(error.kind == .decode)
            #expect(!error.detail.isEmpty)
        }
        #expect(throws: ImageError.self) { try Self.thumbnail([], ThumbnailBox(width: 10, height: 10)) }
    }

    @Test func aTruncatedPNGFailsWithFailOnTruncated() throws {
        let png = try Self.png(width: 200, height: 200)
        let cut = Array(png.prefix(png.count / 2))
        let result = Vips.thumbnail(
            cut, loadOptions: "fail_on=truncated", box: ThumbnailBox(width: 50, height: 50), toSRGB: false,
            background: nil, suffix: ".png", timeLimit: 10)
        guard case .failure(let error) = result else {
            Issue.record("a truncated PNG was thumbnailed")
            return
        }
        #expect(error.kind == .decode)
    }

    @Test func pixelBuffersThatDoNotMatchTheirSizeAreRefused() {
        let box = ThumbnailBox(width: 10, height: 10)
        for (count, width, height) in [(10 * 10 * 4 - 1, 10, 10), (0, 0, 0), (4, -1, -4), (16, 1 << 17, 1)] {
            let result = Vips.thumbnail(
                rgba: [UInt8](repeating: 0, count: max(0, count)), width: width, height: height, box: box,
                background: nil, suffix: ".png", timeLimit: 10)
            guard case .failure(let error) = result else {
                Issue.record("accepted \(count) bytes as \(width)x\(height)")
                continue
            }
            #expect(error.kind == .decode)
            #expect(error.detail.contains("\(width)x\(height)"))
        }
    }
}
