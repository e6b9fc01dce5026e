import LinkPeekTestSupport
import Testing
@testable import LinkPeek

@Suite struct ImageProbeTests {
    typealias F = ImageFixtures

    static let sized: [(name: String, bytes: [UInt8], info: ImageInfo)] = [
        ("png", F.png, ImageInfo(mimeType: "image/png", width: 640, height: 480)),
        ("jpeg", F.jpeg, ImageInfo(mimeType: "image/jpeg", width: 640, height: 480)),
        ("gif", F.gif, ImageInfo(mimeType: "image/gif", width: 320, height: 200)),
        ("webp VP8", F.webpLossy, ImageInfo(mimeType: "image/webp", width: 550, height: 368)),
        ("webp VP8L", F.webpLossless, ImageInfo(mimeType: "image/webp", width: 400, height: 300)),
        ("webp VP8X", F.webpExtended, ImageInfo(mimeType: "image/webp", width: 1920, height: 1080)),
        ("ico", F.ico, ImageInfo(mimeType: "image/x-icon", width: 256, height: 256)),
        ("bmp", F.bmp, ImageInfo(mimeType: "image/bmp", width: 123, height: 77)),
        ("avif", F.avif, ImageInfo(mimeType: "image/avif", width: 1200, height: 675)),
        ("heic", F.heic, ImageInfo(mimeType: "image/heic", width: 4032, height: 3024)),
    ]

    @Test(arguments: 0..<sized.count)
    func readsPixelSize(_ index: Int) {
        let (name, bytes, info) = ImageProbeTests.sized[index]
        #expect(ImageProbe.probe(bytes) == info, "\(name)")
    }

    /// Every prefix of every fixture: no crash, and one fixed sequence of answers as the prefix grows —
    /// nothing, then the type alone, then the type with the right size, never backwards and never a
    /// wrong size. (Each step's first length is the format's; the order and the values are the check.)
    @Test(arguments: 0..<sized.count)
    func truncatedInputGivesNothingThenTheTypeThenTheSize(_ index: Int) {
        let (name, bytes, info) = ImageProbeTests.sized[index]
        var sequence: [ImageInfo?] = []
        for length in 0...bytes.count {
            let answer = ImageProbe.probe(Array(bytes.prefix(length)))
            if sequence.isEmpty || sequence[sequence.count - 1] != answer { sequence.append(answer) }
        }
        #expect(sequence == [nil, ImageInfo(mimeType: info.mimeType), info], "\(name)")
    }

    @Test func truncatedHeadersStillNameTheType() {
        #expect(ImageProbe.probe(Array(F.png.prefix(12))) == ImageInfo(mimeType: "image/png"))
        #expect(ImageProbe.probe(Array(F.jpeg.prefix(30))) == ImageInfo(mimeType: "image/jpeg"))
        #expect(ImageProbe.probe(Array(F.webpExtended.prefix(26))) == ImageInfo(mimeType: "image/webp"))
        #expect(ImageProbe.probe(Array(F.avif.prefix(40))) == ImageInfo(mimeType: "image/avif"))
    }

    @Test func svgSizes() {
        let full = #"""
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- Generator: something -->
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [ <!ENTITY a "b>"> ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="100px" height='50' viewBox="0 0 10 5">
            """#
        #expect(ImageProbe.probe(F.ascii(full)) == ImageInfo(mimeType: "image/svg+xml", width: 100, height: 50))
        let cases: [(String, Int?, Int?)] = [
            (#"<svg viewBox="0 0 24 24"><path/></svg>"#, 24, 24),
            (#"<svg width="48" viewBox="0,0,24,12">"#, 48, 24),
            (#"<svg height="1in" viewBox="0 0 2 1">"#, 192, 96),
            (#"<svg width="100%" height="100%" viewBox="0 0 300 150">"#, 300, 150),
            (#"<svg width="2em" height="1em">"#, nil, nil),
            (#"<svg:svg xmlns:svg="http://www.w3.org/2000/svg" width="16" height="16"/>"#, 16, 16),
            ("<SVG width=32 height=20.6>", 32, 21),
        ]
        for (text, width, height) in cases {
            #expect(ImageProbe.probe(F.ascii(text)) == ImageInfo(mimeType: "image/svg+xml", width: width, height: height), "\(text)")
        }
        #expect(ImageProbe.probe(F.ascii("<html><svg width=1 height=1>")) == nil)
    }

    @Test func svgSizesThatCannotBePixelsAreUnknown() {
        // Each length is sane, but the ratio is not: `Int(_:)` of it trapped before.
        let cases = [
            #"<svg width="100" viewBox="0 0 1e-300 1e6">"#, #"<svg height="100" viewBox="0 0 1e6 1e-300">"#,
            #"<svg width="1e400" height="1e400">"#, #"<svg width="9999999999" height="5">"#,
            #"<svg width="NaN" height="inf" viewBox="0 0 nan inf">"#, #"<svg width="0.4" height="0.2">"#,
        ]
        for text in cases {
            #expect(ImageProbe.probe(F.ascii(text)) == ImageInfo(mimeType: "image/svg+xml"), "\(text)")
        }
    }

    @Test func notImages() {
        #expect(ImageProbe.probe([]) == nil)
        #expect(ImageProbe.probe(F.ascii("<!doctype html><title>x</title>")) == nil)
        #expect(ImageProbe.probe(F.mp4) == nil)
        #expect(ImageProbe.probe(F.ascii("%PDF-1.7")) == nil)
        // A JPEG whose segment lengths point past the end or loop.
        #expect(ImageProbe.probe([0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x00, 0xFF]) == ImageInfo(mimeType: "image/jpeg"))
        #expect(ImageProbe.probe([0, 0, 1, 0, 0, 0]) == nil)
    }

    @Test func garbageNeverCrashes() {
        var generator = SeededGenerator(seed: SeededGenerator.seed(default: 0x1A6E_F00D))
        let headers: [[UInt8]] = [[], [0xFF, 0xD8, 0xFF], Array(F.png.prefix(8)), F.ascii("RIFF\0\0\0\0WEBP"),
                                  [0, 0, 1, 0], F.ascii("BM"), Array(F.avif.prefix(28)), F.ascii("<svg ")]
        for header in headers {
            for _ in 0..<200 {
                let tail = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                _ = ImageProbe.probe(header + tail)
                _ = ContentSniffer.sniff(header + tail)
            }
        }
    }
}
