import LinkPeekTestSupport
import Testing

@testable import LinkPeek

/// `URLNormalizer.normalize` answers a URL already in normal form as it is
/// (`isNormal`, one pass over its bytes): that must never differ from the
/// full normalisation.
struct URLNormalizerFastPathTests {
    @Test(arguments: [
        "http://example.com/", "https://example.com/a/b?q=1&r=%3D", "http://example.com:8080/x",
        "https://sub.example-host.org/p%2Fq?x=%25", "http://127.0.0.1:8443/page?url=a:b@c",
    ])
    func takesNormalURLsAsTheyAre(url: String) {
        #expect(URLNormalizer.isNormal(url.utf8))
        #expect(URLNormalizer.normalizeFully(url) == url)
    }

    @Test(arguments: [
        "HTTP://example.com/", "http://Example.com/", "http://example.com", "http://example.com?x",
        "http://example.com:80/", "https://example.com:443/", "http://example.com:080/", "http://example.com:/",
        "http://example.com/#a", "http://example.com/%7e", "http://example.com/%2f", "http://example.com/%41",
        "http://example.com/100%", "http://example.com/a%2", "http://example.com/a b", " http://example.com/",
        "http://example.com/ü", "http://u@example.com/", "http://[::1]/", "ftp://example.com/", "http:/x",
    ])
    func leavesOthersToTheFullNormalisation(url: String) {
        #expect(!URLNormalizer.isNormal(url.utf8))
    }

    /// Random URLs over the bytes that matter to the rules: the two paths agree on every one.
    @Test func agreesWithTheFullNormalisation() {
        var random = SeededGenerator(seed: SeededGenerator.seed(default: 0x0AB5_2026))
        // Each part is one a normal URL may have three times in four, else one that may make it not normal.
        let schemes = (["http://", "https://"], ["HTTP://", "http:/", "ftp://", " http://"])
        let hosts = (["example.com", "a-b.c_d.", "127.0.0.1"], ["Example.com", "", "[::1]", "u@h", "bücher.de"])
        let ports = (["", ":8080", ":65535", ":1"], [":80", ":443", ":080", ":", ":0", ":1234567", ":8x"])
        let starts = (["/"], ["", "?", "#"])
        let pieces = (
            ["/", "a", "%2F", "%25", "?", "~", "[", "=", "&", "Z", "-"],
            ["%", "%2f", "%41", "%7E", "%G1", "#", " ", "ü", "\t", "\u{7F}", "\\"]
        )
        func pick(_ parts: ([String], [String])) -> String {
            let list = Int.random(in: 0..<4, using: &random) == 0 ? parts.1 : parts.0
            return list[Int.random(in: 0..<list.count, using: &random)]
        }
        var normal = 0
        let rounds = SeededGenerator.rounds(default: 20_000)
        for _ in 0..<rounds {
            var url = pick(schemes) + pick(hosts) + pick(ports) + pick(starts)
            for _ in 0..<Int.random(in: 0...8, using: &random) { url += pick(pieces) }
            let full = URLNormalizer.normalizeFully(url)
            #expect(URLNormalizer.normalize(url) == full, "\(url)")
            if URLNormalizer.isNormal(url.utf8) {
                normal += 1
                #expect(full == url, "\(url)")
            }
        }
        // The fast path is taken often enough for the comparison to mean something.
        #expect(normal > rounds / 50)
    }
}
