import Testing
@testable import LinkPeek

/// Where the page's own markup ends its head, in any chunking.
@Suite struct HeadEndMarkerTests {
    private func end(_ text: String, chunk: Int) -> Int? {
        var marker = HeadEndMarker()
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let next = min(offset + chunk, bytes.count)
            bytes[offset..<next].withUnsafeBytes { marker.scan($0) }
            offset = next
        }
        return marker.end
    }

    @Test func findsTheFirstMarkerInAnyCaseAcrossChunks() {
        let page = "<html><head><img src=x><meta name=a content=b></HEAD><body>"
        let expected = page.utf8.count - "><body>".utf8.count
        for chunk in [1, 2, 3, 5, 7, 64] {
            #expect(end(page, chunk: chunk) == expected, "chunk \(chunk)")
        }
        #expect(end("<p>x</p><BODY class=a>", chunk: 4) == "<p>x</p><BODY".utf8.count)
    }

    @Test func noMarkerNoEnd() {
        #expect(end("<html><head><title>T</title><bod", chunk: 3) == nil)
        #expect(end("<headline></header>", chunk: 2) == nil)
    }
}
