@testable import LinkPeekServer
import Testing

/// Tier 1: URL detection on single lines — what people expect an editor to
/// find, one case per row.
@Suite struct URLDetectorTests {
    /// (line, the URLs expected in it, in order).
    static let table: [(String, [String])] = [
        // Bare URLs.
        ("https://example.com", ["https://example.com"]),
        ("see http://example.com/a/b?c=d#e here", ["http://example.com/a/b?c=d#e"]),
        ("HTTPS://EXAMPLE.COM/X", ["HTTPS://EXAMPLE.COM/X"]),
        ("two: https://a.example and https://b.example", ["https://a.example", "https://b.example"]),
        ("port https://example.com:8443/x", ["https://example.com:8443/x"]),
        ("ipv6 http://[::1]:8080/x ok", ["http://[::1]:8080/x"]),
        ("userinfo https://user@example.com/", ["https://user@example.com/"]),
        // www. hosts.
        ("visit www.example.com today", ["https://www.example.com"]),
        ("WWW.Example.org/path", ["https://WWW.Example.org/path"]),
        ("not a host: www.example", []),
        ("mail me@www.example.com", []),
        // Autolinks and markup.
        ("<https://example.com/auto>", ["https://example.com/auto"]),
        ("<www.example.com>", ["https://www.example.com"]),
        ("[text](https://example.com/md)", ["https://example.com/md"]),
        ("[text](https://example.com/md \"Title\")", ["https://example.com/md"]),
        ("[text](https://example.com/md 'Title')", ["https://example.com/md"]),
        ("[ref]: https://example.com/ref", ["https://example.com/ref"]),
        ("[ref]: <https://example.com/ref> \"T\"", ["https://example.com/ref"]),
        ("`Example <https://example.com/rst>`_", ["https://example.com/rst"]),
        ("[[https://example.com/org][Org link]]", ["https://example.com/org"]),
        ("[[https://example.com/org]]", ["https://example.com/org"]),
        ("[a](https://a.example),[b](https://b.example)", ["https://a.example", "https://b.example"]),
        ("![img](https://example.com/i.png)", ["https://example.com/i.png"]),
        // Quotes, comments, string literals.
        ("url = \"https://example.com/q\"", ["https://example.com/q"]),
        ("url = 'https://example.com/q'", ["https://example.com/q"]),
        ("['https://a.example','https://b.example']", ["https://a.example", "https://b.example"]),
        ("// see https://example.com/c.", ["https://example.com/c"]),
        ("# https://example.com/py", ["https://example.com/py"]),
        ("fetch(`https://example.com/js`)", ["https://example.com/js"]),
        ("href=https://example.com/x>", ["https://example.com/x"]),
        // Trailing punctuation.
        ("End of sentence https://example.com.", ["https://example.com"]),
        ("a https://example.com/x, b", ["https://example.com/x"]),
        ("https://example.com/x; more", ["https://example.com/x"]),
        ("https://example.com/x: more", ["https://example.com/x"]),
        ("Wow https://example.com/x!", ["https://example.com/x"]),
        ("Really https://example.com/x?", ["https://example.com/x"]),
        ("**https://example.com/bold**", ["https://example.com/bold"]),
        ("(see https://example.com/x)", ["https://example.com/x"]),
        ("(https://en.wikipedia.org/wiki/Foo_(disambiguation))", ["https://en.wikipedia.org/wiki/Foo_(disambiguation)"]),
        ("https://en.wikipedia.org/wiki/Foo_(bar).", ["https://en.wikipedia.org/wiki/Foo_(bar)"]),
        ("https://example.com/a[0]=1", ["https://example.com/a[0]=1"]),
        ("It's https://example.com/O'Brien ok", ["https://example.com/O'Brien"]),
        // IDN and non-ASCII.
        ("https://bücher.example/straße", ["https://bücher.example/straße"]),
        ("参见https://例子.测试/路径。下一句", ["https://例子.测试/路径"]),
        ("「https://example.jp/a」", ["https://example.jp/a"]),
        ("“https://example.com/curly”", ["https://example.com/curly"]),
        ("https://example.com/emoji🙂 tail", ["https://example.com/emoji🙂"]),
        ("nbsp https://example.com/x\u{A0}after", ["https://example.com/x"]),
        // Not inside words, not without a host.
        ("xhttps://example.com", []),
        ("awww.example.com", []),
        ("http://", []),
        ("https:// example.com", []),
        ("ftp://example.com/file", []),
        ("mailto:someone@example.com", []),
        ("plain text without links", []),
        ("", []),
    ]

    @Test func detectionTable() {
        #expect(Self.table.count >= 40)
        for (line, expected) in Self.table {
            let found = URLDetector.matches(in: Array(line.utf8)).map(\.url)
            #expect(found == expected, "line: \(line)")
        }
    }

    @Test func matchRangesAreTheURLBytes() {
        let line = Array("(see https://example.com/x) and www.example.org.".utf8)
        let matches = URLDetector.matches(in: line)
        #expect(matches.map { String(decoding: line[$0.start..<$0.end], as: UTF8.self) } == [
            "https://example.com/x", "www.example.org",
        ])
    }

    /// (line, the text of each match's label, or nil).
    static let labels: [(String, [String?])] = [
        ("[the docs](https://example.com/d)", ["[the docs]"]),
        ("see [a [nested] label](https://example.com/n \"T\")", ["[a [nested] label]"]),
        ("![alt text](https://example.com/i.png)", ["![alt text]"]),
        ("[[https://example.com/org][Org label]]", ["[Org label]]"]),
        ("`Python docs <https://docs.example.org/>`_", ["`Python docs "]),
        ("[a](https://a.example) and [b](https://b.example)", ["[a]", "[b]"]),
        ("](https://example.com/no-opener)", [nil]),
        ("<https://example.com/auto>", [nil]),
        ("[[https://example.com/bare]]", [nil]),
    ]

    @Test func labelsOfMarkupLinks() {
        for (line, expected) in Self.labels {
            let bytes = Array(line.utf8)
            let found = URLDetector.matches(in: bytes).map { match in
                match.label.map { String(decoding: bytes[$0], as: UTF8.self) }
            }
            #expect(found == expected, "line: \(line)")
        }
    }

    @Test func aRunawayTokenIsNotALink() {
        let line = Array(("https://example.com/" + String(repeating: "a", count: URLDetector.maxLength)).utf8)
        #expect(URLDetector.matches(in: line).isEmpty)
    }
}
