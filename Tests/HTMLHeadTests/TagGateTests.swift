import Testing

@testable import HTMLHead

/// Tier 1: the gate hands libxml2 whole constructs, so a construct cut by
/// chunk boundaries is parsed once (not rescanned per chunk), and it bounds
/// what a construct can make the parser hold.
@Suite struct TagGateTests {
    /// What the gate emits for `text` fed in chunks of `size`, one string per emit.
    private func emits(_ text: String, chunk size: Int) -> [String] {
        var gate = TagGate()
        var out: [String] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + size, bytes.count)
            bytes[offset..<end].withUnsafeBytes { gate.feed($0) { out.append(String(decoding: $0, as: UTF8.self)) } }
            offset = end
        }
        gate.finish { out.append(String(decoding: $0, as: UTF8.self)) }
        return out
    }

    @Test func everyByteComesOutOnceAndInOrder() {
        let page = #"""
            <!DOCTYPE html><html><head><title>a < b</title><!-- don't "quote" --><?pi x?>
            <meta property="og:title" content='it&apos;s > "fine"'><meta name=x content=unquoted>
            <script type="application/LD+JSON">{"a": "</scr" + 'ipt>', "b<c": 1}</script></head><body>x</body>
            """#
        for size in [1, 2, 3, 5, 7, 16, 64, page.utf8.count] {
            #expect(emits(page, chunk: size).joined() == page, "chunk \(size)")
        }
    }

    @Test func codeAndStylesheetsAreDroppedButTheirElementsStay() {
        let page = #"""
            <head><script>if (a<b && c>d) { s = "</scr" + 'ipt>'; }</script><STYLE media=x>p>a{}</STYLE >
            <script src="/a.js" data-x='json'></script><script type=text/javascript>var json = 1;</script>
            <script type=application/ld+json>{"@type": "a<b"}</script><script type="x-json">[1]</script>
            <script type="application/ld+json; charset=utf-8" id=j>{}</script><meta name=a content=b></head>
            """#
        let expected = #"""
            <head><script></script><STYLE media=x></style >
            <script src="/a.js" data-x='json'></script><script type=text/javascript></script>
            <script type=application/ld+json>{"@type": "a<b"}</script><script type="x-json">[1]</script>
            <script type="application/ld+json; charset=utf-8" id=j>{}</script><meta name=a content=b></head>
            """#
        for size in [1, 2, 3, 5, 7, 16, 64, page.utf8.count] {
            #expect(emits(page, chunk: size).joined() == expected, "chunk \(size)")
        }
    }

    @Test func aTagCutByChunksComesOutWhole() {
        let value = String(repeating: "v", count: 20_000)
        let page = "<head><meta property=og:title content=\"\(value)\"><title>t</title>"
        let out = emits(page, chunk: 4096)
        // A push ends where a construct ends or two bytes into one; the value goes in one piece.
        let whole = out.contains { $0.contains("content=\"\(value)\">") }
        #expect(whole)
        let boundaries = out.dropLast().allSatisfy { $0.hasSuffix(">") || $0.hasSuffix("<m") || $0.hasSuffix("<t") }
        #expect(boundaries)
        #expect(out.joined() == page)
    }

    @Test func textRunsGoWholeWithTheStartOfWhatFollows() {
        let text = String(repeating: "word ", count: 10_000)
        let out = emits("<title>\(text)</title><meta name=a content=b>", chunk: 100)
        let whole = out.contains { $0.hasPrefix("\(text)</") }
        #expect(whole)
    }

    @Test func valuesPastTheLimitAreCutAtACharacter() {
        let value = String(repeating: "é", count: TagGate.valueLimit)  // twice the limit in bytes
        let page = "<meta name=big content=\"\(value)\"><meta name=after content=ok>"
        let out = emits(page, chunk: 1000).joined()
        let expectedValue = String(repeating: "é", count: TagGate.valueLimit / 2)
        #expect(out == "<meta name=big content=\"\(expectedValue)\"><meta name=after content=ok>")
        let unquoted = emits("<meta content=\(String(repeating: "x", count: 100_000)) name=n>", chunk: 999).joined()
        #expect(unquoted == "<meta content=\(String(repeating: "x", count: TagGate.valueLimit)) name=n>")
    }

    @Test func attributesPastTheLimitAreDropped() {
        let attributes = (0..<1_000).map { "a\($0)=\"x>\($0)\"" }.joined(separator: " ")
        let out = emits("<meta \(attributes) b><title>t</title>", chunk: 512).joined()
        let kept = (0..<TagGate.attributeLimit).map { "a\($0)=\"x>\($0)\"" }.joined(separator: " ")
        #expect(out == "<meta \(kept) ><title>t</title>")
    }

    @Test func longCommentsAndScriptsKeepTheirEnds() {
        let comment = "<!--" + String(repeating: "it's \"", count: 50_000) + "--><meta name=a content=b>"
        let commentOut = emits(comment, chunk: 4096).joined()
        #expect(commentOut.hasSuffix("--><meta name=a content=b>"))
        #expect(commentOut.utf8.count < TagGate.commentLimit + 100)

        let script = "<script type=application/ld+json>" + String(repeating: "x<y'\"", count: 300_000)
            + "</script ><meta name=a content=b>"
        let scriptOut = emits(script, chunk: 4096).joined()
        #expect(scriptOut.hasSuffix("</script ><meta name=a content=b>"))
        #expect(scriptOut.utf8.count < TagGate.rawTextLimit + 100)
    }

    @Test func quotesOutsideTagsDoNotHoldAnything() {
        // A quote in text, a comment or a script never starts a value: the meta after each is parsed.
        for prefix in ["it's \"", "<!-- don't -->", "<script>s = \"'\";</script>", "<a b\"c>", "<x =y>"] {
            let page = "<head>\(prefix)<meta property=og:title content=found></head>"
            for size in [1, 3, 4096] {
                #expect(scan(page, chunk: size).meta("og:title") == "found", "\(prefix) in chunks of \(size)")
            }
        }
    }

    @Test func theParserFindsTheSameThingsHoweverTheInputIsCut() {
        let value = String(repeating: "ab ", count: 30_000)
        let page = "<html><head><meta property=og:description content=\"\(value)\"><!-- x --><title>T</title>"
            + "<script type=application/ld+json>{\"name\": \"a<b\"}</script></head><body><p>x</p>"
        let whole = scan(page)
        for size in [1, 7, 4096] {
            let cut = scan(page, chunk: size)
            #expect(cut.title == "T")
            #expect(cut.meta("og:description") == whole.meta("og:description"))
            #expect(cut.all("script").first?.text == #"{"name": "a<b"}"#)
        }
    }
}
