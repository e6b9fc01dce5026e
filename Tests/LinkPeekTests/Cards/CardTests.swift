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

    @Test func markdownCardShowsTheFields() {
        var metadata = LinkMetadata(originalURL: "https://example.com/a")
        metadata.url = "https://www.example.com/final"
        metadata.title = "A Title"
        metadata.siteName = "Example"
        metadata.summary = "Short summary"
        metadata.image = MediaResource(url: "https://example.com/i.png", alt: "Alt")
        #expect(MarkdownCard.render(LinkCard(metadata: metadata)) == """
            **[A Title](https://www.example.com/final)**

            Example · www.example.com

            Short summary

            ![Alt](https://example.com/i.png)

            → [https://www.example.com/final](https://www.example.com/final)
            """)
        #expect(!MarkdownCard.render(LinkCard(metadata: metadata), includeImage: false).contains("!["))
    }

    @Test func hostileTitlesStayText() {
        for title in Self.hostileTitles {
            let markdown = MarkdownCard.render(LinkCard(metadata: metadata(title: title)))
            // Only the card's own link, image and block structure: two links
            // (title, image) and no raw HTML, code or page line breaks.
            #expect(unescaped(markdown, "](") == 2, "\(title) → \(markdown)")
            #expect(unescaped(markdown, "[") == 2, "\(title) → \(markdown)")
            #expect(unescaped(markdown, "<") == 0, "\(title) → \(markdown)")
            #expect(unescaped(markdown, "`") == 0, "\(title) → \(markdown)")
            #expect(unescaped(markdown, "&") == 0, "\(title) → \(markdown)")
            #expect(!markdown.contains("\n#"), "\(title)")
            #expect(!markdown.contains("\u{1B}"), "\(title)")
            #expect(markdown.split(separator: "\n", omittingEmptySubsequences: true).count == 4, "\(title) → \(markdown)")
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

    @Test func markdownEscapesExactly() {
        #expect(MarkdownCard.escape("10.0.0.1", atLineStart: true) == "10.0.0.1")
        #expect(MarkdownCard.escape("]( javascript:alert(1))", atLineStart: false) == "\\]( javascript:alert(1))")
        #expect(MarkdownCard.escape("<img src=x onerror=y>", atLineStart: false) == "\\<img src=x onerror=y\\>")
        #expect(MarkdownCard.escape("a `b` c", atLineStart: false) == "a \\`b\\` c")
        #expect(MarkdownCard.escape("# Title", atLineStart: true) == "\\# Title")
        #expect(MarkdownCard.escape("# Title", atLineStart: false) == "# Title")
        #expect(MarkdownCard.escape("2024. A year", atLineStart: true) == "2024\\. A year")
        #expect(MarkdownCard.escape("- item", atLineStart: true) == "\\- item")
        #expect(MarkdownCard.escape("AT&T", atLineStart: false) == "AT\\&T")
    }

    @Test func destinationsCannotBreakOut() {
        #expect(MarkdownCard.destination("https://e.com/a b") == "https://e.com/a%20b")
        #expect(MarkdownCard.destination("https://e.com/x) [y](z") == "https://e.com/x%29%20[y]%28z")
        #expect(MarkdownCard.destination("https://e.com/\"'<>`\\") == "https://e.com/%22%27%3C%3E%60%5C")
    }

    @Test func onlyWebURLsAreLinked() {
        var metadata = LinkMetadata(originalURL: "https://example.com/")
        metadata.url = "javascript:alert(1)"
        metadata.image = MediaResource(url: "data:image/png;base64,AAAA")
        let card = LinkCard(metadata: metadata)
        #expect(card.link == "https://example.com/")
        #expect(card.finalURL == nil)
        #expect(card.imageURL == nil)
        #expect(!HTMLCard.render(card).contains("javascript"))
        #expect(!MarkdownCard.render(card).contains("data:"))
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
        #expect(MarkdownCard.render(blocked) == "**[10.0.0.1](http://10.0.0.1/)**\n\n*blocked: private address*")
        #expect(LinkCard(originalURL: "https://e.com/", failure: .timedOut).status == "timed out")
        #expect(LinkCard(originalURL: "https://e.com/", failure: .failed(.httpStatus, "x", status: 404)).status == "HTTP 404")
        var partial = LinkMetadata(originalURL: "https://e.com/")
        partial.title = "Known"
        let loading = LinkCard.loading(originalURL: "https://e.com/", partial: partial)
        #expect(MarkdownCard.render(loading) == "**[Known](https://e.com/)**\n\ne.com\n\n*loading…*")
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
        let html = HTMLCard.render(LinkCard(metadata: metadata))
        #expect(html.contains("href=\"https://example.com/?a=1&amp;b=&quot;2&quot;\""))
        #expect(html.contains("<strong>Tom &amp; &quot;Jerry&quot; &lt;3</strong>"))
        #expect(html.hasPrefix("<figure class=\"linkpeek-card\""))
        #expect(!html.contains("<script"))
    }
}
