import Testing

@testable import HTMLHead

/// libxml2 2.9's push parser keeps a stale look-ahead index after script and
/// style content; without the fix in `PushParser.push` the end of a head like
/// this one was only seen when the input ended, so the fetch read the whole page.
struct StaleLookaheadTests {
    /// A head of many styles, scripts and metas, then body text without `<body>`.
    static func page(seed: Int) -> [UInt8] {
        var head = "<!DOCTYPE html>\n<html lang=\"en\"><head>\n<meta charset=\"utf-8\">\n"
        var state = UInt64(seed)
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        let words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "elit"]
        func text(_ count: Int) -> String { (0..<count).map { _ in words[next(words.count)] }.joined(separator: " ") }
        while head.utf8.count < 19_000 {
            switch next(4) {
            case 0: head += "<style>" + (0..<(20 + next(40))).map { ".c\($0){margin:\(next(40))px}" }.joined() + "</style>\n"
            case 1: head += "<script>var d\(next(99999))='\(text(15 + next(70)))';</script>\n"
            case 2: head += "<link rel=\"preload\" href=\"/static/\(next(99999)).js\" as=\"script\">\n"
            default: head += "<meta name=\"x-\(next(99999))\" content=\"\(text(8))\">\n"
            }
        }
        head += "<title>Streaming page</title>\n</head>\n"
        let body = (0..<3000).map { _ in "<p>\(text(12))</p>\n" }.joined()
        return Array((head + "tail of the first paragraph</p>\n" + body).utf8)
    }

    @Test(arguments: [10, 11, 109, 115, 120, 124, 128, 131])
    func headEndIsSeenWhileStreaming(seed: Int) {
        let bytes = Self.page(seed: seed)
        let scanner = HeadScanner(contentType: "text/html")
        var fed = 0
        while fed < bytes.count, !scanner.headComplete {
            let count = min(16_384, bytes.count - fed)
            scanner.feed(Array(bytes[fed..<(fed + count)]))
            fed += count
        }
        #expect(scanner.headComplete, "the end of the head must be seen before the input ends")
        #expect(fed <= 40_000, "read \(fed) of \(bytes.count) bytes before seeing the head end")
        #expect(scanner.document.elements.contains { $0.name == "title" })
    }
}
