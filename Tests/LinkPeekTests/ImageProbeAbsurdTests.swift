import Testing
@testable import LinkPeek

/// Header values that are legal bytes but absurd numbers: answers, never traps.
@Suite struct ImageProbeAbsurdTests {
    /// An AVIF whose `ispe` boxes declare 0xFFFFFFFF × 0xFFFFFFFF: the
    /// comparison of their areas overflowed Int and trapped.
    @Test func isoSidesWhoseProductOverflows() {
        func box(_ type: String, _ content: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + content.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8) + content
        }
        let huge: [UInt8] = [0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        let ipco = box("ipco", box("ispe", huge) + box("ispe", huge))
        let meta = box("meta", [0, 0, 0, 0] + box("iprp", ipco))
        let ftyp = box("ftyp", Array("avif".utf8) + [0, 0, 0, 0] + Array("avifmif1".utf8))
        let info = ImageProbe.probe(ftyp + meta)
        #expect(info == ImageInfo(mimeType: "image/avif", width: 0xFFFF_FFFF, height: 0xFFFF_FFFF))
    }

    /// A viewBox 10^-300 wide makes the computed height 10^306 pixels: no size, no trap.
    @Test(arguments: [
        #"<svg width="1000000" viewBox="0 0 1e-300 1">"#,
        #"<svg height="1000000" viewBox="0 0 1 1e-300">"#,
        #"<svg width="9999999" viewBox="0 0 0.0000001 9999999">"#,
    ])
    func svgSidesBeyondAnyImage(_ text: String) {
        let info = ImageProbe.probe(Array(text.utf8))
        #expect(info?.mimeType == "image/svg+xml")
        #expect(info?.width == nil && info?.height == nil)
    }

    @Test func pixelCapSeesOverflowingAreas() {
        #expect(ImagePipeline.checkPixels(Int.max, 2, pages: 1, maxPixels: 50_000_000)?.reason == .imageTooLarge)
        #expect(ImagePipeline.checkPixels(1 << 40, 1 << 40, pages: 1, maxPixels: 50_000_000)?.reason == .imageTooLarge)
        #expect(ImagePipeline.checkPixels(5000, 5000, pages: 3, maxPixels: 50_000_000)?.reason == .imageTooLarge)
        #expect(ImagePipeline.checkPixels(5000, 5000, pages: 2, maxPixels: 50_000_000) == nil)
        #expect(ImagePipeline.checkPixels(nil, 5000, pages: 1, maxPixels: 50_000_000) == nil)
    }
}
