import Foundation
import JSONRPC
import LinkPeek
import LinkPeekTestSupport
import Testing

/// Tier 2: the LSP layer over the fake service — capabilities, document
/// sync, hover (cache, budget, partial card, cancel), documentLink, render.
@Suite struct HoverTests {
    static let uri = "file:///notes.md"

    private func open(_ client: TestClient, _ text: String, uri: String = HoverTests.uri) {
        client.notify("textDocument/didOpen", ["textDocument": ["uri": .string(uri), "languageId": "markdown", "version": 1, "text": .string(text)]])
    }

    private func hover(_ client: TestClient, _ id: RequestID, line: Int, character: Int, extra: [String: JSONValue] = [:]) async throws -> JSONValue {
        var params: [String: JSONValue] = ["textDocument": ["uri": .string(Self.uri)], "position": ["line": .int(line), "character": .int(character)]]
        params.merge(extra) { $1 }
        return try await client.request(id, "textDocument/hover", .object(params))
    }

    private func markdown(_ answer: JSONValue) -> String {
        if case .string(let value)? = answer["result"]?["contents"]?["value"] { return value }
        return "<no card in \(answer)>"
    }

    @Test func initializeAdvertisesLSPAndEchoesSettings() async throws {
        let client = try TestClient()
        let answer = try await client.request(1, "initialize", [
            "capabilities": ["general": ["positionEncodings": ["utf-32", "utf-16"]]],
            "initializationOptions": ["hoverTimeout": 0.25, "prefetch": true, "timeout": 9, "cacheDir": "/tmp/lp",
                                      "oembed": false, "acceptLanguage": "de-DE,de;q=0.9"],
        ])
        let capabilities = answer["result"]?["capabilities"]
        #expect(capabilities?["hoverProvider"] == true)
        #expect(capabilities?["documentLinkProvider"] == ["resolveProvider": true])
        #expect(capabilities?["textDocumentSync"] == ["openClose": true, "change": 2])
        #expect(capabilities?["positionEncoding"] == "utf-32")
        let settings = answer["result"]?["settings"]
        #expect(settings?["hoverTimeout"] == 0.25)
        #expect(settings?["prefetch"] == true)
        #expect(settings?["timeout"] == 9)
        #expect(settings?["cacheDir"] == "/tmp/lp")
        #expect(settings?["maxConcurrency"] == 64)
        #expect(settings?["allowPrivateNetwork"] == false)
        #expect(settings?["oembed"] == false)
        #expect(settings?["acceptLanguage"] == "de-DE,de;q=0.9")
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func initializeEchoesNoLanguageAsEmptyAndOEmbedOnByDefault() async throws {
        let client = try TestClient()
        let answer = try await client.request(1, "initialize", ["initializationOptions": ["acceptLanguage": ""]])
        let settings = answer["result"]?["settings"]
        #expect(settings?["oembed"] == true)
        #expect(settings?["acceptLanguage"] == "")
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func badHoverTimeoutNamesTheField() async throws {
        let client = try TestClient()
        let answer = try await client.request(1, "initialize", ["initializationOptions": ["hoverTimeout": 61]])
        #expect(answer.errorMessage == "initializationOptions.hoverTimeout must be a number from 0 to 60 (seconds)")
        let position = try await client.request(2, "textDocument/hover", ["textDocument": ["uri": "file:///x"], "position": ["line": -1, "character": 0]])
        #expect(position.errorMessage == "position.line must be an integer from 0 to 2147483647")
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func hoverOnAURLReturnsItsCardAndRange() async throws {
        let client = try TestClient()
        open(client, "Read <https://fast/page> today.\nplain text here")
        let answer = try await hover(client, 1, line: 0, character: 10)
        #expect(markdown(answer) == "**Title of https://fast/page**\n\nfast")
        #expect(answer["result"]?["contents"]?["kind"] == "markdown")
        #expect(answer["result"]?["range"] == ["start": ["line": 0, "character": 6], "end": ["line": 0, "character": 23]])
        #expect(try await hover(client, 2, line: 1, character: 3)["result"] == .null)
        #expect(try await hover(client, 3, line: 0, character: 2)["result"] == .null)
        #expect(try await hover(client, 4, line: 9, character: 0)["result"] == .null)
        // Hovering a Markdown link's words shows its card; the range covers the words and the URL.
        open(client, "A [good read](https://fast/md) here", uri: "file:///other.md")
        let words = try await client.request(6, "textDocument/hover", [
            "textDocument": ["uri": "file:///other.md"], "position": ["line": 0, "character": 4],
        ])
        #expect(markdown(words) == "**Title of https://fast/md**\n\nfast")
        #expect(words["result"]?["range"] == ["start": ["line": 0, "character": 2], "end": ["line": 0, "character": 29]])
        let unknown = try await client.request(5, "textDocument/hover", ["textDocument": ["uri": "file:///other"], "position": ["line": 0, "character": 0]])
        #expect(unknown["result"] == .null)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func hoverImagesAreThumbnailsAndCanBeTurnedOff() async throws {
        var cached = LinkMetadata(originalURL: "https://fast/i")
        cached.title = "With image"
        cached.image = MediaResource(url: "https://fast/i.png")
        cached.image?.bytes = 2048
        var unverified = LinkMetadata(originalURL: "https://fast/u")
        unverified.title = "Refused image"
        unverified.image = MediaResource(url: "https://fast/u.png")
        let withImages = try TestClient(service: FakeService(cache: ["https://fast/i": cached, "https://fast/u": unverified]))
        open(withImages, "https://fast/i https://fast/u")
        #expect(markdown(try await hover(withImages, 1, line: 0, character: 1))
            == "**With image**\n\nfast\n\n![](data:image/jpeg;base64,/9j/)")
        // An image no fetch verified gives no image line and never its URL.
        #expect(markdown(try await hover(withImages, 2, line: 0, character: 16)) == "**Refused image**\n\nfast")
        #expect(try await withImages.shutdownAndExit() == 0)
        let without = try TestClient(service: FakeService(cache: ["https://fast/i": cached]))
        _ = try await without.request(1, "initialize", ["initializationOptions": ["hoverImages": false]])
        open(without, "https://fast/i")
        #expect(markdown(try await hover(without, 2, line: 0, character: 1)) == "**With image**\n\nfast")
        #expect(try await without.shutdownAndExit() == 0)
    }

    @Test func aClientThatPrefersPlainTextGetsNoMarkdown() async throws {
        var cached = LinkMetadata(originalURL: "https://fast/p")
        cached.url = "https://fast/p_final"
        cached.title = "Dev_Notes: *50% off*"
        cached.summary = "- A list? [No](link)."
        cached.image = MediaResource(url: "https://fast/p.png")
        cached.image?.bytes = 2048
        let client = try TestClient(service: FakeService(cache: ["https://fast/p": cached]))
        _ = try await client.request(1, "initialize", [
            "capabilities": ["textDocument": ["hover": ["contentFormat": ["plaintext", "markdown"]]]],
        ])
        open(client, "https://fast/p")
        let answer = try await hover(client, 2, line: 0, character: 1)
        #expect(answer["result"]?["contents"]?["kind"] == "plaintext")
        #expect(markdown(answer) == "Dev_Notes: *50% off*\nfast\n- A list? [No](link).\n→ https://fast/p_final")
        #expect(try await client.shutdownAndExit() == 0)
        // Markdown first (or no preference): Markdown, escaped only where it must be.
        let markdownClient = try TestClient(service: FakeService(cache: ["https://fast/p": cached]))
        _ = try await markdownClient.request(1, "initialize", [
            "capabilities": ["textDocument": ["hover": ["contentFormat": ["markdown", "plaintext"]]]],
        ])
        open(markdownClient, "https://fast/p")
        let card = try await hover(markdownClient, 2, line: 0, character: 1)
        #expect(card["result"]?["contents"]?["kind"] == "markdown")
        #expect(markdown(card) == """
            **Dev_Notes: \\*50% off\\***

            fast

            \\- A list? \\[No\\](link).

            ![](data:image/jpeg;base64,/9j/)

            → https://fast/p_final
            """)
        #expect(try await markdownClient.shutdownAndExit() == 0)
    }

    @Test func slowPageGivesAPartialCardWithinTheBudgetThenTheFullOne() async throws {
        let service = FakeService(remembers: true)
        let client = try TestClient(service: service)
        _ = try await client.request(1, "initialize", ["initializationOptions": ["hoverTimeout": 0.2]])
        open(client, "https://gated/slow")
        // Answered on the budget, before the fetch could end (it ends only when the gate opens): the card
        // says it is still loading. An order, not a time.
        let first = try await hover(client, 2, line: 0, character: 3)
        #expect(markdown(first) == "**gated**\n\n*loading…*")
        service.openGate()
        // The fetch goes on; once it has returned (its preview remembered first), a hover shows the full card.
        try await service.wait(until: { $0.returnedCount == 1 }, "the gated fetch returned")
        let second = try await hover(client, 3, line: 0, character: 3)
        #expect(markdown(second) == "**Title of https://gated/slow**\n\ngated")
        #expect(service.fetchCount == 1)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func cancellingAHoverNeverCancelsTheSharedFetch() async throws {
        let service = FakeService(remembers: true)
        let client = try TestClient(service: service)
        _ = try await client.request(1, "initialize", ["initializationOptions": ["hoverTimeout": 5]])
        open(client, "https://gated/shared")
        client.send(.request(id: 2, method: "textDocument/hover", params: [
            "textDocument": ["uri": .string(Self.uri)], "position": ["line": 0, "character": 1],
        ]))
        client.send(.request(id: 3, method: "textDocument/hover", params: [
            "textDocument": ["uri": .string(Self.uri)], "position": ["line": 0, "character": 2],
        ]))
        // A state, not a pause: the shared fetch runs (and returns only when the gate opens) before the cancel.
        try await service.wait(until: { $0.fetchCount == 1 }, "the hovers' fetch started")
        client.notify("$/cancelRequest", ["id": 2])
        #expect(try await client.response(2).errorCode == -32800)
        #expect(service.returnedCount == 0, "cancelling a hover ended the shared fetch")
        service.openGate()
        let other = try await client.response(3)
        #expect(markdown(other).hasPrefix("**Title of https://gated/shared**"))
        #expect(service.fetchCount == 1)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func hoverReportsWorkDoneProgressAndHonoursItsCancel() async throws {
        let service = FakeService(remembers: true)
        let client = try TestClient(service: service)
        _ = try await client.request(1, "initialize", ["initializationOptions": ["hoverTimeout": 10]])
        open(client, "https://events/a https://slow/b")
        let answer = try await hover(client, 2, line: 0, character: 1, extra: ["workDoneToken": "h"])
        #expect(markdown(answer).contains("complete"))
        let progress = client.drain().filter { $0["method"] == "$/progress" && $0["params"]?["token"] == "h" }
        #expect(progress.first?["params"]?["value"]?["kind"] == "begin")
        #expect(progress.last?["params"]?["value"]?["kind"] == "end")
        // window/workDoneProgress/cancel ends the hover that uses the token.
        client.send(.request(id: 3, method: "textDocument/hover", params: [
            "textDocument": ["uri": .string(Self.uri)], "position": ["line": 0, "character": 20], "workDoneToken": "s",
        ]))
        try await service.wait(until: { $0.fetchCount == 2 }, "the second hover's fetch started")
        client.notify("window/workDoneProgress/cancel", ["token": "s"])
        #expect(try await client.response(3, timeout: 5).errorCode == -32800)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func workDoneProgressCancelEndsAFetch() async throws {
        let service = FakeService()
        let client = try TestClient(service: service)
        client.send(.request(id: 1, method: "fetch", params: ["url": "https://slow/", "workDoneToken": "w"]))
        try await service.wait(until: { $0.fetchCount == 1 }, "the fetch started")
        client.notify("window/workDoneProgress/cancel", ["token": "w"])
        let answer = try await client.response(1, timeout: 5)
        #expect(answer.errorCode == -32800)
        #expect(answer["error"]?["data"]?["kind"] == "cancelled")
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func aTokenInUseIsRefused() async throws {
        let service = FakeService()
        let client = try TestClient(service: service)
        client.send(.request(id: 1, method: "fetch", params: ["url": "https://slow/", "workDoneToken": "t"]))
        try await service.wait(until: { $0.fetchCount == 1 }, "the fetch started")
        let second = try await client.request(2, "fetch", ["url": "https://fast/", "partialResultToken": "t"])
        #expect(second.errorCode == -32600)
        #expect(second.errorMessage == "partialResultToken \"t\" is in use by a running request")
        let same = try await client.request(3, "fetch", ["url": "https://fast/", "workDoneToken": 5, "partialResultToken": 5])
        #expect(same.errorCode == -32602)
        #expect(same.errorMessage == "partialResultToken must differ from workDoneToken")
        client.notify("$/cancelRequest", ["id": 1])
        #expect(try await client.response(1).errorCode == -32800)
        // Freed once answered.
        #expect(try await client.request(4, "fetch", ["url": "https://fast/", "workDoneToken": "t"])["result"] != nil)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func incrementalChangesMoveTheLinks() async throws {
        let client = try TestClient()
        open(client, "intro\nhttps://fast/a")
        client.notify("textDocument/didChange", [
            "textDocument": ["uri": .string(Self.uri), "version": 2],
            "contentChanges": [
                ["range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 0]], "text": "🙂 https://fast/new\n"],
                ["range": ["start": ["line": 2, "character": 14], "end": ["line": 2, "character": 14]], "text": "bc"],
            ],
        ])
        let links = try await client.request(1, "textDocument/documentLink", ["textDocument": ["uri": .string(Self.uri)]])
        #expect(links["result"] == [
            ["range": ["start": ["line": 0, "character": 3], "end": ["line": 0, "character": 19]], "target": "https://fast/new"],
            ["range": ["start": ["line": 2, "character": 0], "end": ["line": 2, "character": 16]], "target": "https://fast/abc"],
        ])
        let answer = try await hover(client, 2, line: 0, character: 5)
        #expect(markdown(answer).hasPrefix("**Title of https://fast/new**"))
        // A full-text change replaces everything; close forgets the document.
        client.notify("textDocument/didChange", ["textDocument": ["uri": .string(Self.uri), "version": 3], "contentChanges": [["text": "nothing"]]])
        #expect(try await client.request(3, "textDocument/documentLink", ["textDocument": ["uri": .string(Self.uri)]])["result"] == [])
        client.notify("textDocument/didClose", ["textDocument": ["uri": .string(Self.uri)]])
        #expect(try await client.request(4, "textDocument/documentLink", ["textDocument": ["uri": .string(Self.uri)]])["result"] == .null)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func resolveFillsTheTooltipFromTheCacheOnly() async throws {
        var cached = LinkMetadata(originalURL: "https://fast/c")
        cached.title = "Cached\ntitle"
        let service = FakeService(cache: ["https://fast/c": cached])
        let client = try TestClient(service: service)
        let range: JSONValue = ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 5]]
        let hit = try await client.request(1, "documentLink/resolve", ["range": range, "target": "https://fast/c"])
        #expect(hit["result"] == ["range": range, "target": "https://fast/c", "tooltip": "Cached title"])
        let miss = try await client.request(2, "documentLink/resolve", ["range": range, "target": "https://fast/d"])
        #expect(miss["result"] == ["range": range, "target": "https://fast/d"])
        #expect(service.fetchCount == 0)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func renderGivesTheSameCards() async throws {
        let client = try TestClient()
        let fromURL = try await client.request(1, "render", ["url": "https://fast/r", "format": "markdown"])
        #expect(fromURL["result"] == ["text": "**Title of https://fast/r**\n\nfast"])
        let given = try await client.request(2, "render", [
            "metadata": ["originalURL": "https://e.com/", "title": "<b>T</b>"], "format": "html",
        ])
        if case .string(let html)? = given["result"]?["text"] {
            #expect(html.contains("<strong>&lt;b&gt;T&lt;/b&gt;</strong>"))
        } else {
            Issue.record("no html: \(given)")
        }
        let text = try await client.request(3, "render", ["url": "https://fail/x", "format": "text"])
        #expect(text["result"] == ["text": "fail\nhttps://fail/x\n(HTTP 404)"])
        let both = try await client.request(4, "render", ["url": "https://fast/", "metadata": ["originalURL": "x"], "format": "text"])
        #expect(both.errorMessage == "give exactly one of url and metadata")
        let format = try await client.request(5, "render", ["url": "https://fast/", "format": "pdf"])
        #expect(format.errorMessage == "format must be one of markdown, html, text")
        let width = try await client.request(6, "render", ["url": "https://fast/", "format": "text", "width": 5])
        #expect(width.errorMessage == "width must be an integer from 20 to 1000")
        let metadata = try await client.request(7, "render", ["metadata": ["title": "no originalURL"], "format": "text"])
        #expect(metadata.errorMessage == "metadata.originalURL is required")
        #expect(try await client.shutdownAndExit() == 0)
    }

    /// The messages before the response to `id`, and the response.
    private func untilResponse(_ client: TestClient, _ id: RequestID) async throws -> (before: [JSONValue], answer: JSONValue) {
        var before: [JSONValue] = []
        while true {
            let message = try await client.next()
            if message["id"] == id.jsonValue, message["method"] == nil { return (before, message) }
            before.append(message)
        }
    }

    private func workDone(_ messages: [JSONValue], token: JSONValue) -> [JSONValue] {
        messages.filter { $0["method"] == "$/progress" && $0["params"]?["token"] == token }.compactMap { $0["params"]?["value"]?["kind"] }
    }

    /// A page that answers at once sends no event before the flight ends;
    /// the hover's token gets `begin` and `end` all the same, before the answer.
    @Test func aHoverOfAPageThatAnswersAtOnceGetsBeginAndEnd() async throws {
        let client = try TestClient(service: FakeService())
        _ = try await client.request(1, "initialize", ["initializationOptions": ["hoverTimeout": 10]])
        open(client, "https://fast/now")
        client.send(.request(id: 2, method: "textDocument/hover", params: [
            "textDocument": ["uri": .string(Self.uri)], "position": ["line": 0, "character": 3], "workDoneToken": "h",
        ]))
        let (before, answer) = try await untilResponse(client, 2)
        #expect(markdown(answer).hasPrefix("**Title of https://fast/now**"))
        #expect(workDone(before, token: "h") == ["begin", "end"])
        #expect(try await client.messagesBeforeSentinel().isEmpty)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func aHoverAnsweredFromTheCacheGetsBeginAndEnd() async throws {
        var cached = LinkMetadata(originalURL: "https://cached/")
        cached.title = "Cached"
        let service = FakeService(cache: ["https://cached/": cached])
        let client = try TestClient(service: service)
        _ = try await client.request(1, "initialize", ["initializationOptions": ["hoverTimeout": 10]])
        open(client, "https://cached/")
        client.send(.request(id: 2, method: "textDocument/hover", params: [
            "textDocument": ["uri": .string(Self.uri)], "position": ["line": 0, "character": 3], "workDoneToken": 9,
        ]))
        let (before, answer) = try await untilResponse(client, 2)
        #expect(markdown(answer).hasPrefix("**Cached**"))
        #expect(workDone(before, token: 9) == ["begin", "end"])
        #expect(service.fetchCount == 0)
        #expect(try await client.shutdownAndExit() == 0)
    }

    /// A hover of a URL that prefetch is fetching joins that fetch (one
    /// fetch in all) and gets `begin` and `end` on its token.
    @Test func aHoverJoiningAPrefetchGetsBeginAndEndAndTheSameFetch() async throws {
        let service = FakeService(remembers: true)
        let client = try TestClient(service: service)
        _ = try await client.request(1, "initialize", ["initializationOptions": ["prefetch": true, "hoverTimeout": 30]])
        open(client, "https://delay/300")
        try await service.wait(until: { $0.fetchCount == 1 }, "the prefetch started")
        client.send(.request(id: 2, method: "textDocument/hover", params: [
            "textDocument": ["uri": .string(Self.uri)], "position": ["line": 0, "character": 3], "workDoneToken": "j",
        ]))
        let (before, answer) = try await untilResponse(client, 2)
        #expect(markdown(answer).hasPrefix("**Title of https://delay/300**"))
        #expect(workDone(before, token: "j") == ["begin", "end"])
        #expect(service.fetchCount == 1)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func prefetchWarmsOpenedDocuments() async throws {
        let service = FakeService(remembers: true)
        let client = try TestClient(service: service)
        _ = try await client.request(1, "initialize", ["initializationOptions": ["prefetch": true, "hoverTimeout": 0]])
        open(client, "https://fast/1 https://fast/2\nhttps://fast/3 https://fast/1")
        // Returned means remembered (the fake caches before it returns).
        try await service.wait(until: { $0.returnedCount == 3 }, "three prefetches returned")
        #expect(service.fetchCount == 3)
        // With a budget of zero only a cached card can be full: prefetch made it so.
        let answer = try await hover(client, 2, line: 1, character: 3)
        #expect(markdown(answer) == "**Title of https://fast/3**\n\nfast")
        #expect(try await client.shutdownAndExit() == 0)
    }
}
