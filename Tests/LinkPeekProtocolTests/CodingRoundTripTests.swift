import Foundation
import LinkPeekProtocol
import Testing

/// Protocol messages against literal JSON as a client writes it: decoded to
/// the value expected, and encoded back to the same text (keys sorted, as
/// the daemon writes them); what a type refuses, it refuses with a
/// decoding error naming what was expected.
@Suite struct CodingRoundTripTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// `json` decodes to `expected` and `expected` encodes to `json`.
    static func roundTrip<T: Codable & Equatable>(_ json: String, _ expected: T) throws {
        #expect(try decode(T.self, json) == expected)
        #expect(try encode(expected) == json)
    }

    @Test func fetchParamsWithEveryField() throws {
        let json = """
            {"acceptLanguage":"fr-CH, fr;q=0.9","cachePolicy":"staleWhileRevalidate","fetchSubresources":false,\
            "includeData":true,"partialResultToken":"partial-1","providerId":7,"thumbnail":{"dpr":2,"format":"webp",\
            "height":48,"width":64},"timeout":2.5,"url":"https://example.com/a?b=c","workDoneToken":"work-1"}
            """
        let expected = FetchParams(
            url: "https://example.com/a?b=c", providerId: .integer(7), timeout: 2.5, cachePolicy: .staleWhileRevalidate,
            fetchSubresources: false, includeData: true, workDoneToken: .string("work-1"),
            partialResultToken: .string("partial-1"), acceptLanguage: "fr-CH, fr;q=0.9",
            thumbnail: ThumbnailParams(width: 64, height: 48, format: "webp", dpr: 2))
        try Self.roundTrip(json, expected)
        #expect(expected.validationError() == nil)
    }

    @Test func fetchParamsWithOnlyTheURLLeaveTheRestAbsent() throws {
        try Self.roundTrip(#"{"url":"https://example.com/"}"#, FetchParams(url: "https://example.com/"))
    }

    @Test func aMissingURLIsAKeyNotFoundError() {
        do {
            _ = try Self.decode(FetchParams.self, #"{"timeout":1}"#)
            Issue.record("decoded params without a url")
        } catch DecodingError.keyNotFound(let key, _) {
            #expect(key.stringValue == "url")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func integerAndStringIdsStayApart() throws {
        #expect(try Self.decode(ProviderID.self, "1") == .integer(1))
        #expect(try Self.decode(ProviderID.self, #""1""#) == .string("1"))
        #expect(try Self.encode(ProviderID.integer(1)) == "1")
        #expect(try Self.encode(ProviderID.string("1")) == #""1""#)
        for json in ["1.5", "true", "null", "[1]", #"{"id":1}"#] {
            do {
                _ = try Self.decode(ProviderID.self, json)
                Issue.record("\(json) decoded as a provider id")
            } catch DecodingError.typeMismatch(_, let context) {
                #expect(context.debugDescription == "Expected a string or an integer", "\(json)")
            } catch {
                Issue.record("\(json): unexpected error \(error)")
            }
        }
    }

    @Test func anUnknownCachePolicyNamesTheChoices() {
        do {
            _ = try Self.decode(FetchParams.self, #"{"url":"https://example.com/","cachePolicy":"never"}"#)
            Issue.record("decoded an unknown cache policy")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.debugDescription == "one of default, reload, cacheOnly, staleWhileRevalidate")
            #expect(context.codingPath.map(\.stringValue) == ["cachePolicy"])
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func workDoneProgressByKind() throws {
        try Self.roundTrip(
            #"{"bytes":0,"cancellable":true,"kind":"begin","stage":"resolving","title":"Fetching https://example.com/"}"#,
            WorkDoneProgress.begin(WorkDoneProgressBegin(title: "Fetching https://example.com/", stage: "resolving", bytes: 0)))
        try Self.roundTrip(
            #"{"bytes":4096,"kind":"report","stage":"downloading"}"#,
            WorkDoneProgress.report(WorkDoneProgressReport(stage: "downloading", bytes: 4096)))
        try Self.roundTrip(#"{"kind":"end","message":"done"}"#, WorkDoneProgress.end(WorkDoneProgressEnd(message: "done")))
        do {
            _ = try Self.decode(WorkDoneProgress.self, #"{"kind":"middle"}"#)
            Issue.record("decoded an unknown progress kind")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "unknown progress kind middle")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func progressNotificationCarriesTheTokenAndTheValue() throws {
        #expect(ProgressParams<WorkDoneProgress>.method == "$/progress")
        try Self.roundTrip(
            #"{"token":3,"value":{"kind":"report","message":"half"}}"#,
            ProgressParams(token: .integer(3), value: WorkDoneProgress.report(WorkDoneProgressReport(message: "half"))))
    }

    @Test func hoverParamsAndTheirPositionCheck() throws {
        let json = #"{"position":{"character":7,"line":2},"textDocument":{"uri":"file:///notes.md"}}"#
        let params = try Self.decode(HoverParams.self, json)
        #expect(params == HoverParams(
            textDocument: TextDocumentIdentifier(uri: "file:///notes.md"), position: PositionParam(line: 2, character: 7)))
        #expect(params.validationError() == nil)
        #expect(params.position.integers.line == 2 && params.position.integers.character == 7)
        #expect(HoverParams.method == "textDocument/hover")

        let negative = try Self.decode(HoverParams.self, #"{"position":{"character":0,"line":-1},"textDocument":{"uri":"a"}}"#)
        #expect(negative.validationError()?.hasPrefix("position.line must be an integer from 0 to ") == true)
        let fractional = try Self.decode(HoverParams.self, #"{"position":{"character":1.5,"line":0},"textDocument":{"uri":"a"}}"#)
        #expect(fractional.validationError()?.hasPrefix("position.character must be an integer") == true)
    }

    @Test func hoverResultAsTheDaemonWritesIt() throws {
        let hover = Hover(
            contents: MarkupContent(value: "**Example** — a page"),
            range: LSPRange(start: LSPPosition(line: 0, character: 1), end: LSPPosition(line: 0, character: 20)))
        try Self.roundTrip(
            #"{"contents":{"kind":"markdown","value":"**Example** — a page"},"range":{"end":{"character":20,"line":0},"start":{"character":1,"line":0}}}"#,
            hover)
    }

    @Test func thumbnailParamsNameTheirFieldUnderThePrefix() throws {
        let params = try Self.decode(ThumbnailParams.self, #"{"width":0}"#)
        #expect(params.validationError()?.hasPrefix("thumbnail.width must be") == true)
        #expect(params.validationError(prefix: "options.")?.hasPrefix("options.width must be") == true)
    }

    /// Each provider flag is whether its method is served: none served, none claimed.
    @Test func capabilitiesSayWhichMethodsAreServed() throws {
        let none = try Self.encode(ServerCapabilities(methods: []))
        #expect(none == #"{"cancelProvider":false,"fetchProvider":false,"getCachedProvider":false,"getMediaProvider":false,"#
            + #""hoverProvider":false,"partialResults":true,"positionEncoding":"utf-16","prefetchProvider":false,"#
            + #""renderProvider":false,"savedLinksProvider":false,"textDocumentSync":{"change":2,"openClose":true},"#
            + #""workDoneProgress":true}"#)
        let some = try Self.encode(ServerCapabilities(
            methods: [FetchParams.method, DocumentLinkParams.method, SaveParams.method], positionEncoding: "utf-8"))
        #expect(some.contains(#""fetchProvider":true"#))
        #expect(some.contains(#""documentLinkProvider":{"resolveProvider":false}"#))
        // `savedLinksProvider` needs all three of save, unsave and saved.
        #expect(some.contains(#""savedLinksProvider":false"#))
        #expect(some.contains(#""positionEncoding":"utf-8""#))
    }
}
