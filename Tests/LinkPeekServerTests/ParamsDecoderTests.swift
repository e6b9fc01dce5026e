import FoundationEssentials
import JSONRPC
import LinkPeekProtocol
import LinkPeekTestSupport
import Testing

/// Tier 1: `JSONValueDecoder` reads params from the parsed tree exactly as
/// `JSONDecoder` reads the same tree written out (the path it replaced):
/// the same values, and failures of the same kind, at the same coding path,
/// for the same type, so that every -32602 sentence stays what it was.
@Suite struct ParamsDecoderTests {
    /// How a decode ended, in the terms the -32602 sentences use.
    func outcome<T: Decodable & Equatable>(_ decode: () throws -> T) -> String {
        do {
            return "value \(try decode())"
        } catch let error as DecodingError {
            func path(_ keys: [any CodingKey]) -> String {
                keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            }
            switch error {
            case .keyNotFound(let key, let context): return "keyNotFound \(path(context.codingPath + [key]))"
            case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
                return "wrongType \(type) \(path(context.codingPath))"
            case .dataCorrupted(let context): return "corrupted \(path(context.codingPath))"
            @unknown default: return "unknown"
            }
        } catch {
            return "other \(error)"
        }
    }

    func compare<T: Decodable & Equatable>(_ type: T.Type, _ value: JSONValue, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let written = try JSONEncoder().encode(value)
        let reference = outcome { try JSONDecoder().decode(T.self, from: written) }
        let direct = outcome { try JSONValueDecoder.decode(T.self, from: value) }
        #expect(direct == reference, "\(T.self) from \(String(decoding: written, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    /// Each params type, from values of every JSON type in every field.
    func compareAll(_ value: JSONValue) throws {
        try compare(FetchParams.self, value)
        try compare(GetMediaParams.self, value)
        try compare(PrefetchParams.self, value)
        try compare(InitializeParams.self, value)
        try compare(HoverParams.self, value)
        try compare(DidChangeTextDocumentParams.self, value)
        try compare(SavedParams.self, value)
        try compare(RenderParams.self, value)
        try compare(CancelParams.self, value)
        try compare(DocumentLinkResolveParams.self, value)
    }

    static let samples: [JSONValue] = [
        .null, true, false, 0, -1, 7, 1.5, -0.25, 1e20, .double(.greatestFiniteMagnitude), .number("1e2"),
        .number("9223372036854775808"), "", "https://a.example/", "cacheOnly", "markdown", [], [1, "a"], [:],
        ["a": 1], ["line": 1, "character": 2], ["uri": "file:///a", "version": 1],
    ]

    @Test func readsTheWellFormedParamsAsJSONDecoderDoes() throws {
        try compareAll([
            "url": "https://a.example/", "providerId": 3, "timeout": 2.5, "cachePolicy": "reload",
            "fetchSubresources": false, "includeData": true, "workDoneToken": "w", "partialResultToken": 4,
            "acceptLanguage": "fr", "thumbnail": ["width": 64, "height": 64, "format": "webp"],
        ])
        try compareAll([
            "processId": 12, "capabilities": ["general": ["positionEncodings": ["utf-8", "utf-16"]]],
            "initializationOptions": ["timeout": 5, "resolve": ["a.example:443:127.0.0.1"], "cache": ["directory": "/x"]],
        ])
        try compareAll([
            "textDocument": ["uri": "file:///a", "version": 2], "position": ["line": 1, "character": 2],
            "contentChanges": [["text": "x", "range": ["start": ["line": 0, "character": 0], "end": ["line": 0, "character": 1]]]],
        ])
        try compareAll(["urls": ["https://a.example/", "https://b.example/"], "providerId": "p", "tag": "t", "limit": 3])
    }

    @Test func failsWhereJSONDecoderFailsAndNamesTheSameField() throws {
        let fields = [
            "url", "providerId", "timeout", "cachePolicy", "fetchSubresources", "workDoneToken", "thumbnail",
            "processId", "capabilities", "initializationOptions", "textDocument", "position", "contentChanges",
            "urls", "limit", "format", "target", "range", "transform",
        ]
        for field in fields {
            for sample in Self.samples {
                try compareAll([field: sample])
                try compareAll(["url": "https://a.example/", "urls": [], field: sample])
            }
        }
    }

    /// Integer fields (results and `render`'s `metadata` have them): whole
    /// numbers in range read, `1.5`, `1e20` and `null` fail as `JSONDecoder` fails.
    struct Counts: Decodable, Equatable {
        var count: Int
        var small: UInt8?
        var list: [Int]?
        var nested: [String: Int]?
    }

    @Test func integersReadAndFailAsJSONDecoderReadsThem() throws {
        for sample in Self.samples + [255, 256, -1, .double(3.0), .number("1e2"), .number("2.5")] {
            try compare(Counts.self, ["count": sample])
            try compare(Counts.self, ["count": 1, "small": sample])
            try compare(Counts.self, ["count": 1, "list": [1, sample]])
            try compare(Counts.self, ["count": 1, "nested": ["a": sample]])
        }
    }

    @Test func seededTreesAgree() throws {
        var random = SeededGenerator(seed: SeededGenerator.seed(default: 21))
        let keys = ["url", "urls", "timeout", "thumbnail", "width", "height", "format", "textDocument", "uri", "version",
            "position", "line", "character", "providerId", "initializationOptions", "cache", "directory", "resolve"]
        func tree(_ depth: Int) -> JSONValue {
            if depth == 0 || Int.random(in: 0..<3, using: &random) == 0 {
                return Self.samples.randomElement(using: &random) ?? .null
            }
            if Bool.random(using: &random) {
                return .array((0..<Int.random(in: 0..<3, using: &random)).map { _ in tree(depth - 1) })
            }
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 1..<5, using: &random) {
                members[keys.randomElement(using: &random) ?? "url"] = tree(depth - 1)
            }
            return .object(members)
        }
        for _ in 0..<400 { try compareAll(tree(4)) }
    }
}
