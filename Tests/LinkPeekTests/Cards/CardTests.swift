@testable import LinkPeek
import Testing

/// Tier 1: cards — what they show, and that no text from a page can become
/// markup in any of the three formats.
@Suite struct CardTests {
    static let hostileTitles = [
        "]( javascript:alert(1))",
        "<img src=x onerror=alert(1)>",
        "```\ncode fence\n```",
        "Line one\nLine two\r\n# Heading",
        "[click](https://evil.example)",
        "![x](https://evil.example/p.png)",
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "`code` *bold* _it_ ~~del~~ | table |",
        "\u{1B}[31mred\u{1B}[0m\u{202E}txet",
    ]

    private func metadata(title: String) -> LinkMetadata {
        var metadata = LinkMetadata(originalURL: "https://example.com/a")
        metadata.title = title
        metadata.summary = title
        metadata.siteName = title
        metadata.image = MediaResource(url: "https://example.com/i.png", alt: title)
        return metadata
    }

    /// A JPEG's first bytes: enough for a `data:` URI (`/9j/` in base64).
    static let thumbnail = CardImage(type: "image/jpeg", bytes: [0xFF, 0xD8, 0xFF])

    @Test func markdownCardShowsTheFields() {
        var metadata = LinkMetadata(originalURL: "https://example.com/a")
        metadata.url = "https://www.example.com/final"
        metadata.title = "A Title"
        metadata.siteName = "Example"
        metadata.summary = "Short summary"
        metadata.image = MediaResource(url: "https://example.com/i.png", alt: "Alt")
        var card = LinkCard(metadata: metadata)
        card.image = Self.thumbnail
        #expect(MarkdownCard.render(card) == """
            **A Title**

            Example · www.example.com

            Short summary

            ![Alt](data:image/jpeg;base64,/9j/)

            → https://www.example.com/final
            """)
        #expect(MarkdownCard.render(card, includeImage: false) == """
            **A Title**

            Example · www.example.com

            Short summary

            → https://www.example.com/final
            """)
    }

    @Test func thePagesImageURLNeverReachesACard() {
        var metadata = LinkMetadata(originalURL: "https://example.com/a")
        metadata.title = "A Title"
        metadata.image = MediaResource(url: "http://192.168.1.1/x.png", alt: "Alt")
        metadata.image?.bytes = 1234
        let card = LinkCard(metadata: metadata)
        #expect(card.image == nil)
        #expect(MarkdownCard.render(card) == "**A Title**\n\nexample.com")
        #expect(!HTMLCard.render(card).contains("192.168.1.1"))
        #expect(!HTMLCard.render(card).contains("<img"))
    }

    @Test func noCardShowsAURLsCredentials() {
        var metadata = LinkMetadata(originalURL: "https://me:secret@example.com/a?q=1@2")
        metadata.url = "https://you:hunter2@www.example.com/final"
        metadata.title = "A Title"
        let card = LinkCard(metadata: metadata)
        #expect(card.originalURL == "https://example.com/a?q=1@2")
        #expect(card.link == "https://www.example.com/final")
        #expect(card.finalURL == "https://www.example.com/final")
        #expect(TextCard.render(card, style: .init(color: false, width: 80)) == """
            A Title
            www.example.com
            https://www.example.com/final
            """)
        #expect(MarkdownCard.render(card) == "**A Title**\n\nwww.example.com\n\n→ https://www.example.com/final")
        let html = HTMLCard.render(card)
        #expect(html.contains("href=\"https://www.example.com/final\""))
        #expect(!html.contains("hunter2") && !html.contains("secret"))
        // The original URL alone (no redirect), and a scheme that is not http(s).
        let plain = LinkCard(metadata: LinkMetadata(originalURL: "http://me:secret@example.com:8080/"))
        #expect(TextCard.render(plain, style: .init(color: false, width: 80)) == "example.com:8080\nhttp://example.com:8080/")
        let other = LinkCard(originalURL: "ftp://me:secret@files.example/x", failure: .failed(.unsupportedScheme, "x"))
        #expect(MarkdownCard.render(other) == "**ftp://files.example/x**\n\n*unsupported scheme*")
    }

    @Test func cardImagesAreSmallRasterThumbnails() {
        #expect(CardImage(type: "image/jpeg", bytes: Array(repeating: 1, count: CardImage.maximumBytes)) != nil)
        #expect(CardImage(type: "image/jpeg", bytes: Array(repeating: 1, count: CardImage.maximumBytes + 1)) == nil)
        #expect(CardImage(type: "image/svg+xml", bytes: Array("<svg/>".utf8)) == nil)
        #expect(CardImage(type: "image/png", bytes: []) == nil)
        #expect(Self.thumbnail?.dataURI == "data:image/jpeg;base64,/9j/")
    }

    @Test func hostileTitlesStayText() {
        for title in Self.hostileTitles {
            let markdown = MarkdownCard.render(LinkCard(metadata: metadata(title: title)))
            // Only the card's own bold heading: no link, image, raw HTML,
            // code, entity or emphasis from the page, and no page line breaks.
            // A `[` opens a link only when a `]` follows on its line.
            for line in markdown.split(separator: "\n") where line.contains("]") {
                #expect(unescaped(String(line), "[") == 0, "\(title) → \(markdown)")
            }
            #expect(unescaped(markdown, "](") == 0, "\(title) → \(markdown)")
            #expect(unescaped(markdown, "<") == 0, "\(title) → \(markdown)")
            #expect(unescaped(markdown, "`") == 0, "\(title) → \(markdown)")
            #expect(unescaped(markdown, "&") == 0, "\(title) → \(markdown)")
            #expect(unescaped(markdown, "*") == 4, "\(title) → \(markdown)")
            #expect(unescaped(markdown, "_") == 0, "\(title) → \(markdown)")
            #expect(unescaped(markdown, "~") == 0, "\(title) → \(markdown)")
            #expect(!markdown.contains("\n#"), "\(title)")
            #expect(!markdown.contains("\u{1B}"), "\(title)")
            #expect(markdown.split(separator: "\n", omittingEmptySubsequences: true).count == 3, "\(title) → \(markdown)")
            let html = HTMLCard.render(LinkCard(metadata: metadata(title: title)))
            #expect(!html.contains("<img src=x"), "\(title)")
            #expect(!html.contains("<script"), "\(title)")
            #expect(!html.contains("&lt;script"), "\(title)")  // & itself is escaped: &amp;lt;
            let text = TextCard.render(LinkCard(metadata: metadata(title: title)), style: .init(color: false, width: 80))
            #expect(!text.contains("\u{1B}"), "\(title)")
        }
    }

    /// Occurrences of `pattern` whose first character is not backslash-escaped.
    private func unescaped(_ text: String, _ pattern: String) -> Int {
        let characters = Array(text)
        let wanted = Array(pattern)
        var count = 0
        var index = 0
        var backslashes = 0
        while index < characters.count {
            if backslashes % 2 == 0, characters[index...].starts(with: wanted) { count += 1 }
            backslashes = characters[index] == "\\" ? backslashes + 1 : 0
            index += 1
        }
        return count
    }

    @Test func markdownEscapesOnlyWhatWouldChange() {
        let cases: [(text: String, atLineStart: Bool, escaped: String)] = [
            ("10.0.0.1", true, "10.0.0.1"),
            ("Dev_Notes and snake_case_name", true, "Dev_Notes and snake_case_name"),
            ("_init_ and __main__", false, "\\_init\\_ and \\_\\_main\\_\\_"),
            ("A - list of things - and more", true, "A - list of things - and more"),
            ("-5 degrees", true, "-5 degrees"),
            ("- item", true, "\\- item"),
            ("+ item", true, "\\+ item"),
            ("* item", true, "\\* item"),
            ("---", true, "\\---"),
            ("* * *", true, "\\* * *"),
            ("50% off!", true, "50% off!"),
            ("![x](y)", false, "!\\[x\\](y)"),
            ("[link](https://e.example)", false, "\\[link\\](https://e.example)"),
            ("[x] and y]", false, "\\[x] and y]"),
            ("[draft", false, "[draft"),
            ("]( javascript:alert(1))", false, "\\]( javascript:alert(1))"),
            ("<img src=x onerror=y>", false, "\\<img src=x onerror=y>"),
            ("a < b > c", false, "a < b > c"),
            ("a `b` c", false, "a \\`b\\` c"),
            ("it`s", false, "it`s"),
            ("5 * 3 * 2", false, "5 * 3 * 2"),
            ("*a* b", false, "\\*a\\* b"),
            ("~5 min", false, "~5 min"),
            ("~~gone~~", false, "\\~\\~gone\\~\\~"),
            ("AT&T", false, "AT&T"),
            ("&amp; &#38; &#x26;", false, "\\&amp; \\&#38; \\&#x26;"),
            ("a\\b", false, "a\\b"),
            ("a\\*", false, "a\\\\*"),
            ("# Title", true, "\\# Title"),
            ("# Title", false, "# Title"),
            ("#hashtag", true, "#hashtag"),
            ("> quote", true, "\\> quote"),
            ("2024. A year", true, "2024\\. A year"),
            ("1) one", true, "1\\) one"),
            ("3.14 is pi", true, "3.14 is pi"),
            ("Q: why? A: because", true, "Q: why? A: because"),
        ]
        for (text, atLineStart, escaped) in cases {
            #expect(MarkdownCard.escape(text, atLineStart: atLineStart) == escaped, "\(text)")
        }
        // Between the card's own `**`, any `*` (and a final backslash) would pair with them.
        #expect(MarkdownCard.escape("C*", atLineStart: false, insideStrong: true) == "C\\*")
        #expect(MarkdownCard.escape("a\\", atLineStart: false, insideStrong: true) == "a\\\\")
    }

    @Test func onlyWebURLsAreLinked() {
        var metadata = LinkMetadata(originalURL: "https://example.com/")
        metadata.url = "javascript:alert(1)"
        metadata.image = MediaResource(url: "data:image/png;base64,AAAA")
        let card = LinkCard(metadata: metadata)
        #expect(card.link == "https://example.com/")
        #expect(card.finalURL == nil)
        #expect(card.image == nil)
        #expect(!HTMLCard.render(card).contains("javascript"))
        #expect(!MarkdownCard.render(card).contains("data:"))
    }

    @Test func theHostShowsItsPortUnlessItIsTheSchemesDefault() {
        #expect(CardText.host(of: "http://example.com:8080/a") == "example.com:8080")
        #expect(CardText.host(of: "https://Example.COM:443/a") == "example.com")
        #expect(CardText.host(of: "http://example.com:80/") == "example.com")
        #expect(CardText.host(of: "https://example.com:80/") == "example.com:80")
        #expect(CardText.host(of: "http://example.com:08080/") == "example.com:8080")
        #expect(CardText.host(of: "http://[::1]:8443/") == "[::1]:8443")
        #expect(CardText.host(of: "http://[::1]/") == "[::1]")
        #expect(CardText.host(of: "http://example.com:/") == "example.com")
        #expect(CardText.host(of: "http://example.com:99999/") == "example.com")
        // The same in every place a card shows it: heading, site line, each format.
        let failed = LinkCard(originalURL: "http://127.0.0.1:8766/x", failure: .timedOut)
        #expect(MarkdownCard.render(failed).hasPrefix("**127.0.0.1:8766**"))
        #expect(TextCard.render(failed, style: .hover).hasPrefix("127.0.0.1:8766\n"))
        #expect(HTMLCard.render(failed).contains("<strong>127.0.0.1:8766</strong>"))
        var metadata = LinkMetadata(originalURL: "http://127.0.0.1:8766/x")
        metadata.title = "T"
        metadata.siteName = "Site"
        #expect(LinkCard(metadata: metadata).siteLine == "Site · 127.0.0.1:8766")
    }

    @Test func thePlainTextHoverCardHasNoMarkup() {
        var metadata = LinkMetadata(originalURL: "https://example.com/a")
        metadata.url = "https://www.example.com/final"
        metadata.title = "Dev_Notes: *50% off*"
        metadata.siteName = "Example"
        metadata.summary = "- A list? [No](link)."
        var card = LinkCard(metadata: metadata)
        card.image = Self.thumbnail
        #expect(TextCard.render(card, style: .hover) == """
            Dev_Notes: *50% off*
            Example · www.example.com
            - A list? [No](link).
            → https://www.example.com/final
            """)
        metadata.url = nil
        #expect(TextCard.render(LinkCard(metadata: metadata), style: .hover) == """
            Dev_Notes: *50% off*
            Example · example.com
            - A list? [No](link).
            """)
    }

    @Test func summaryIsCutAtAWordBoundary() {
        let long = String(repeating: "word ", count: 100)
        var metadata = LinkMetadata(originalURL: "https://example.com/")
        metadata.summary = long
        let summary = LinkCard(metadata: metadata).summary ?? ""
        #expect(summary.hasSuffix("word…"))
        #expect(summary.count <= LinkCard.summaryLimit + 1)
    }

    @Test func failureAndLoadingCardsSayWhy() {
        let blocked = LinkCard(originalURL: "http://10.0.0.1/", failure: .failed(.blockedAddress, "x"))
        #expect(MarkdownCard.render(blocked) == "**10.0.0.1**\n\n*blocked: private address (set allowPrivateNetwork to allow)*")
        #expect(LinkCard(originalURL: "https://e.com/", failure: .timedOut).status == "timed out")
        #expect(LinkCard(originalURL: "https://e.com/", failure: .failed(.httpStatus, "x", status: 404)).status == "HTTP 404")
        var partial = LinkMetadata(originalURL: "https://e.com/")
        partial.title = "Known"
        let loading = LinkCard.loading(originalURL: "https://e.com/", partial: partial)
        #expect(MarkdownCard.render(loading) == "**Known**\n\ne.com\n\n*loading…*")
    }

    @Test func textCardWrapsAndColoursOnlyWhenAsked() {
        var metadata = LinkMetadata(originalURL: "https://example.com/")
        metadata.title = "Title"
        metadata.summary = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda"
        let plain = TextCard.render(LinkCard(metadata: metadata), style: .init(color: false, width: 20))
        #expect(plain == "Title\nexample.com\nalpha beta gamma\ndelta epsilon zeta\neta theta iota kappa\nlambda\nhttps://example.com/")
        let coloured = TextCard.render(LinkCard(metadata: metadata), style: .init(color: true, width: 80))
        #expect(coloured.hasPrefix("\u{1B}[1mTitle\u{1B}[0m\n\u{1B}[2mexample.com\u{1B}[0m"))
        #expect(TextCard.wrap("日本語日本語日本語日本語", width: 20) == ["日本語日本語日本語日", "本語"])
    }

    @Test func htmlCardEscapesAttributes() {
        var metadata = LinkMetadata(originalURL: "https://example.com/?a=1&b=\"2\"")
        metadata.title = "Tom & \"Jerry\" <3"
        var card = LinkCard(metadata: metadata)
        card.image = Self.thumbnail
        let html = HTMLCard.render(card)
        #expect(html.contains("<img src=\"data:image/jpeg;base64,/9j/\""))
        #expect(html.contains("href=\"https://example.com/?a=1&amp;b=&quot;2&quot;\""))
        #expect(html.contains("<strong>Tom &amp; &quot;Jerry&quot; &lt;3</strong>"))
        #expect(html.hasPrefix("<figure class=\"linkpeek-card\""))
        #expect(!html.contains("<script"))
    }
}
