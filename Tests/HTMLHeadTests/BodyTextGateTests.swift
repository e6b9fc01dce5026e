import Testing

@testable import HTMLHead

/// Body text that no element captures never reaches libxml2, and what the
/// collector records is the same as when every byte goes through.
@Suite struct BodyTextGateTests {
    /// What the gate lets through of `text`, fed in chunks of `size`, dropping from the start.
    private func through(_ text: String, chunk size: Int, paragraphs: Bool = false, divisions: Bool = false) -> String {
        var gate = TagGate()
        gate.bodyText.drops = true
        gate.bodyText.paragraphs = paragraphs
        gate.bodyText.headings = false
        gate.bodyText.divisions = divisions
        var out = ""
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + size, bytes.count)
            bytes[offset..<end].withUnsafeBytes { gate.feed($0) { out += String(decoding: $0, as: UTF8.self) } }
            offset = end
        }
        gate.finish { out += String(decoding: $0, as: UTF8.self) }
        return out
    }

    @Test func textIsDroppedUntilATagThatMayCapture() {
        let page = "x y<div>a</div><p>b</p><br>c<b class=k>kept</b><i>kept too</i>"
        for size in [1, 3, 7, page.utf8.count] {
            #expect(through(page, chunk: size) == "<div></div><p></p><br><b class=k>kept</b><i>kept too</i>", "chunk \(size)")
        }
    }

    @Test func bareParagraphsTitlesAndTheEndOfTheBodyStopTheDrop() {
        #expect(through("a<p>b</p>c", chunk: 64, paragraphs: true) == "<p>b</p>c")
        // A bare `<div>` while text blocks are still read.
        #expect(through("a<span>b</span><div>c<br>d</div>", chunk: 64, divisions: true) == "<span></span><div>c<br>d</div>")
        #expect(through("a<title>T</title>", chunk: 64) == "<title>T</title>")
        #expect(through("a</body>after", chunk: 64) == "</body>after")
        #expect(through("a</html>after", chunk: 64) == "</html>after")
    }

    @Test func theCollectorRecordsWhatItDidWithoutTheDrop() {
        // Twelve paragraphs: ten are kept, the rest of the body's text is dropped
        // before libxml2, but the marked byline, the heading and the time after
        // them are still recorded with their text, in every chunking.
        let paragraphs = (0..<12).map { "<p>para \($0) \(String(repeating: "w ", count: 50))</p>\n" }.joined()
        let page = "<html><head><meta charset=utf-8><title>T</title></head><body>\n" + paragraphs
            + "loose text <div>more <span>text</span></div><div class=\"byline\">By <b>Ann</b></div>"
            + "<h1>Heading</h1><time datetime=2024-05-01>May 1</time><p>late</p></body></html>"
        let words = BodyRecords(markers: ["byline"])
        for chunk in [nil, 1, 5, 4096] {
            let kept = scan(page, chunk: chunk, bodyRecords: words).elements.filter(\.isFallback)
            #expect(kept.filter { $0.name == "p" }.count == 10, "chunk \(String(describing: chunk))")
            #expect(kept.first { $0.name == "p" }?.text?.hasPrefix("para 0 w w") == true)
            #expect(kept.first { $0.name == "div" }?.text == "By Ann")
            #expect(kept.first { $0.name == "h1" }?.text == "Heading")
            #expect(kept.first { $0.name == "time" }?.text == "May 1")
        }
    }

    @Test func textDirectlyInHtmlStillImpliesItsParagraph() {
        // Text after `</head>` and before `<body>` implies a body and a `<p>`
        // in libxml2: it must reach the parser even though the head is done.
        for chunk in [nil, 1, 5] {
            let kept = scan("<html><head><meta charset=utf-8><title>T</title></head>Loose words<div>x</div>", chunk: chunk)
                .elements.filter(\.isFallback)
            #expect(kept.map(\.name) == ["p"], "chunk \(String(describing: chunk))")
            #expect(kept.first?.text == "Loose words")
        }
    }
}
