import Testing
@testable import HTMLHead

/// Huge or hostile heads: memory stays bounded and nothing crashes.
@Suite struct LimitsTests {
    /// Feeds `prefix`, then `unit` repeated in 16 KiB chunks up to `total` bytes.
    private func feedHuge(prefix: String, unit: String, total: Int = 20_000_000) -> (HeadScanner, HeadDocument) {
        let scanner = HeadScanner(contentType: "text/html; charset=utf-8")
        scanner.feed(Array(prefix.utf8))
        var chunk: [UInt8] = []
        while chunk.count < 16 * 1024 { chunk += Array(unit.utf8) }
        var fed = 0
        while fed < total {
            scanner.feed(chunk)
            fed += chunk.count
        }
        return (scanner, scanner.finish())
    }

    @Test func twentyMegabytesOfMetaTagsAreCapped() {
        let scanner = HeadScanner(contentType: "text/html; charset=utf-8")
        scanner.feed(Array("<html><head>".utf8))
        var chunk: [UInt8] = []
        while chunk.count < 16 * 1024 { chunk += Array("<meta name=x content=y>\n".utf8) }
        var fed = 0
        var completeWhileFeeding = false
        while fed < 20_000_000 {
            scanner.feed(chunk)
            fed += chunk.count
            completeWhileFeeding = completeWhileFeeding || scanner.headComplete
        }
        let document = scanner.finish()
        #expect(document.elements.count == 2_000)
        // No `</head>` or body start is ever written: the head is not complete while bytes arrive; the end
        // of input ends it. Nothing recorded counts as body.
        #expect(!completeWhileFeeding)
        #expect(scanner.headComplete && document.headComplete)
        #expect(document.elements.allSatisfy { !$0.inBody })
    }

    @Test func aFullCollectorStillSeesAHeadEndAsWritten() {
        // Past the element cap nothing more can be recorded and libxml2 gets
        // no more input; the gate alone finds `</head>`, `<body>` or
        // `<frameset>`. An end only implied (a `<div>`, text) is not seen then.
        let metas = String(repeating: "<meta name=x content=\"y > z\">\n", count: 3_000)
        let endings = [
            ("</head><body>", true), ("<BODY class=a>text", true), ("<frameset>", true),
            ("<script>'</head>'</script><div class=a>text", false), ("words", false), ("", false),
        ]
        for (ending, seen) in endings {
            let page = "<html lang=fr><head>" + metas + "<meta property=og:title content=late>" + ending + "<p>x</p>"
            let metasEnd = "<html lang=fr><head>".utf8.count + metas.utf8.count
            for size in [4096, 100_000] {
                let scanner = HeadScanner(contentType: "text/html")
                let bytes = Array(page.utf8)
                var offset = 0
                var completeAt: Int?
                while offset < bytes.count {
                    let end = min(offset + size, bytes.count)
                    scanner.feed(Array(bytes[offset..<end]))
                    if completeAt == nil, scanner.headComplete { completeAt = end }
                    offset = end
                }
                let document = scanner.finish()
                #expect((completeAt != nil) == seen, "\(ending), chunk \(size)")
                if let completeAt { #expect(completeAt > metasEnd, "\(ending), chunk \(size)") }
                #expect(document.elements.count == 2_000, "\(ending), chunk \(size)")
                #expect(document.meta("og:title") == nil, "\(ending), chunk \(size)")
                #expect(document.htmlLang == "fr", "\(ending), chunk \(size)")
                #expect(document.elements.allSatisfy { !$0.inBody }, "\(ending), chunk \(size)")
            }
        }
    }

    @Test func metasThatNameNothingAreNotRecordedButCountAgainstTheCap() {
        let page = "<head><meta content=a data-x=1><meta NAME=n content=v><meta Charset=utf-8><meta itemprop=p content=q>"
            + "<meta property=og:x content=y><meta http-equiv=refresh content=0><meta></head>"
        let metas = scan(page, chunk: 5).all("meta")
        #expect(metas.map { $0.attributeList.first?.name } == ["name", "charset", "itemprop", "property", "http-equiv"])
        // The element cap counts them as if recorded: the same metas are recorded with or without them.
        for (count, recorded) in [(1_999, 1), (2_000, 0)] {
            let keyless = String(repeating: "<meta content=x a=1>", count: count)
            let document = scan("<head>" + keyless + "<meta name=late content=y></head>", chunk: 4096)
            #expect(document.elements.count == recorded, "\(count) metas before")
        }
    }

    @Test func jsonLDBlocksPastTheirCapAreNotRecordedButCount() {
        let blocks = (0..<150).map { "<script type=application/ld+json>{\"n\": \($0)}</script>" }.joined()
        let document = scan("<head>" + blocks + "<meta name=after content=x></head>", chunk: 4096)
        let scripts = document.all("script")
        #expect(scripts.count == 100)
        #expect(scripts.last?.text == "{\"n\": 99}")
        #expect(document.meta("after") == "x")
        // Counted against the element cap as if recorded.
        let many = String(repeating: "<script type=application/ld+json>{}</script>", count: 2_000)
        #expect(scan("<head>" + many + "<meta name=late content=y></head>", chunk: 4096).meta("late") == nil)
    }

    @Test func endlessTitleIsCappedAtTheTextLimit() {
        // The gate passes on 64 KiB of a text run (cut at a character), below the collector's own 1 MiB cap.
        let (_, document) = feedHuge(prefix: "<head><title>", unit: "é ab ", total: 3_000_000)
        let title = document.title ?? ""
        #expect(title.utf8.count <= TagGate.textLimit)
        #expect(title.utf8.count > TagGate.textLimit - 4)
        #expect(title.hasPrefix("é ab"))
    }

    @Test func aTextRunPastTheLimitKeepsWhatFollows() {
        let text = String(repeating: "&#1114112;&amp; ", count: 20_000)
        let page = "<head><title>\(text)</title><meta property=og:title content=after></head><body>"
        for size in [4096, 100_000] {
            let document = scan(page, chunk: size)
            #expect(document.meta("og:title") == "after", "chunk \(size)")
            #expect((document.title ?? "").utf8.count <= TagGate.textLimit, "chunk \(size)")
        }
    }

    @Test func endlessJSONLDIsCapped() {
        let (_, document) = feedHuge(prefix: "<head><script type=application/ld+json>", unit: "[1,2,3],", total: 3_000_000)
        #expect(document.all("script").first?.text?.utf8.count == 1 << 20)
    }

    @Test func unterminatedCommentAndAttributeDoNotHang() {
        // libxml2 buffers an unfinished construct whole; the parser stops
        // feeding it beyond 4 MiB, so these end quickly with bounded memory.
        let (_, comment) = feedHuge(prefix: "<head><title>t</title><!--", unit: "<meta name=a content=b>")
        #expect(comment.title == "t")
        #expect(comment.all("meta").isEmpty)
        let (_, attribute) = feedHuge(prefix: "<head><meta name=a content=\"", unit: "abcdefgh ")
        #expect(attribute.elements.count <= 1)
    }

    @Test func hugeAttributeValuesAreCut() {
        let value = String(repeating: "ü", count: 40_000)
        let document = scan("<meta name=big content=\"\(value)\">")
        let content = document.meta("big") ?? ""
        #expect(content.utf8.count == 64 * 1024)
        #expect(content.allSatisfy { $0 == "ü" })
    }
}
