import PureTestSupport
import Testing
@testable import HTMLHead

/// Documents assembled from real-world fragments, cut at random places: the
/// network decides chunk boundaries, so no boundary may change the result.
@Suite struct RandomSplitTests {
    static let fragments = [
        "<meta name=\"description\" content=\"a &amp; b\">",
        "<script>var s = '</div>'; if (a<b) {}</script>",
        "<style>@media (max-width: 10px) { a > b { c: d } }</style>",
        "<!-- comment with <meta name=x content=y> inside -->",
        "<!--[if IE]><link rel=stylesheet href=ie.css><![endif]-->",
        "<link rel=\"icon\" href=\"/f.ico\" sizes=\"16x16\">",
        "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"name\":\"Café\"}</script>",
        "<title>Títle &#8212; &lt;x&gt;</title>",
        "<meta property='og:image' content='https://x/y.png?a=1&amp;b=2'>",
        "<noscript><img src=pixel.gif></noscript>",
        "<base href=\"https://example.org/\">",
        "<svg><title>icon</title><path d='M0 0'/></svg>",
        "<span itemprop=\"name\">  Ünïcode  </span>",
        "\n  \t",
        "日本語のテキスト",
    ]

    @Test func randomDocumentsRandomCuts() {
        let seed = SeededGenerator.seed(default: 0x5EED)
        var generator = SeededGenerator(seed: seed)
        var utf16 = false
        for _ in 0..<60 {
            var html = "<!DOCTYPE html><html><head><meta charset=utf-8>"
            for _ in 0..<Int.random(in: 3...12, using: &generator) {
                html += RandomSplitTests.fragments[Int.random(in: 0..<RandomSplitTests.fragments.count, using: &generator)]
            }
            html += "</head><body><p>body</p>"
            html += RandomSplitTests.fragments[Int.random(in: 0..<RandomSplitTests.fragments.count, using: &generator)]
            let utf8 = Array(html.utf8)
            // Every other document goes as UTF-16LE, through iconv and its
            // cut-sequence tail.
            let bytes = utf16 ? [0xFF, 0xFE] + html.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } : utf8
            utf16.toggle()
            let whole = scan(bytes)
            #expect(whole.elements == scan(utf8).elements, "seed \(seed)")
            for _ in 0..<4 {
                let split = scanInRandomChunks(bytes, using: &generator)
                #expect(split == whole, "seed \(seed): \(html)")
                if split != whole { return }
            }
        }
    }
}
