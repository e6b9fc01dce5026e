import PureTestSupport
import Testing

@testable import HTMLHead

/// Tier 1: reading a tag in runs (`TagGate+Tags`) passes on exactly what the
/// byte-by-byte steps pass on, in the same pieces, whatever the input and
/// however it is cut.
@Suite struct TagGateRunsTests {
    /// Pieces that move the gate through every state inside and around tags:
    /// names, `=`, both quotes, unquoted values, `/`, `>`, white space,
    /// non-ASCII, a script tag that may mention JSON, comments, raw text.
    static let pieces = [
        "<", ">", "</", "<meta", "<META ", "<script", "<script ", "</script>", "<style>", "<!--", "-->", "<!x", "<?p",
        " ", "\t", "\n", "=", " = ", "\"", "'", "/", "/>", "a", "name", "content", "x", "json", "JSON", "type=",
        "application/ld+json", "é", "\u{1F600}", "data-a", "v1", "a=b", "a='b c'", "a=\"d>e\"", "k=v ", "<p>", "text ",
    ]

    /// What `gate` passes on for `bytes` cut into `cuts`, piece by piece,
    /// and what it holds at the end.
    private static func run(_ bytes: [UInt8], cuts: [Int], wholeTags: Bool) -> ([[UInt8]], Int) {
        var gate = TagGate()
        gate.readsTagsWhole = wholeTags
        var out: [[UInt8]] = []
        var offset = 0
        for cut in cuts + [bytes.count] where cut > offset {
            bytes[offset..<cut].withUnsafeBytes { gate.feed($0) { out.append(Array($0)) } }
            offset = cut
        }
        let held = gate.heldCount
        gate.finish { out.append(Array($0)) }
        return (out, held)
    }

    @Test func runsAndStepsPassOnTheSame() {
        let seed = SeededGenerator.seed(default: 0x7A6_6A7E)
        var generator = SeededGenerator(seed: seed)
        for round in 0..<200 {
            // Cut into pieces of up to 1, 3, 17 or 4,096 bytes.
            let longest = [1, 3, 17, 4096][round % 4]
            var page = ""
            for _ in 0..<Int.random(in: 1...60, using: &generator) {
                switch Int.random(in: 0..<40, using: &generator) {
                case 0:
                    // A tag past the attribute limit.
                    page += "<meta " + (0..<Int.random(in: 30...40, using: &generator)).map { "a\($0)=\($0)" }
                        .joined(separator: " ")
                case 1 where longest > 3:
                    // An unquoted value past the value limit (in UTF-8 that may be cut).
                    page += "<meta content=" + String(repeating: "é", count: TagGate.valueLimit / 2 + 3) + "x"
                default:
                    page += Self.pieces[Int.random(in: 0..<Self.pieces.count, using: &generator)]
                }
            }
            let bytes = Array(page.utf8)
            var cuts: [Int] = []
            var cut = 0
            while cut < bytes.count {
                cut += Int.random(in: 1...longest, using: &generator)
                cuts.append(min(cut, bytes.count))
            }
            let steps = Self.run(bytes, cuts: cuts, wholeTags: false)
            let runs = Self.run(bytes, cuts: cuts, wholeTags: true)
            #expect(runs.0 == steps.0, "seed \(seed), round \(round): \(page.prefix(300))")
            #expect(runs.1 == steps.1, "seed \(seed), round \(round)")
            if runs.0 != steps.0 { return }
        }
    }
}
