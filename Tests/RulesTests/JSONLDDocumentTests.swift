#if canImport(Glibc)
import Glibc
#endif
import JSON
import PureTestSupport
import Metadata
import Testing
@testable import Rules

/// What a JSON-LD block reads as, now that the one JSON parser reads it
/// (`JSONParser`, with the decisions protocol/README.md lists under
/// "Parsing"), and what the rules then take from it.
@Suite struct JSONLDDocumentTests {
    @Test func readsStrictJSONToItsValues() throws {
        let cases: [(String, JSONValue)] = [
            (#"{"@context": "https://schema.org", "@type": "NewsArticle", "headline": "A \"quoted\" title"}"#,
             ["@context": "https://schema.org", "@type": "NewsArticle", "headline": "A \"quoted\" title"]),
            (#"[{"a": [1, -2.5, 3e2, 0, -0.0, 1E-3], "b": true, "c": false, "d": null}, {}, []]"#,
             [["a": [1, -2.5, 300, 0, 0, 0.001], "b": true, "c": false, "d": nil], [:], []]),
            (#"{"esc": "\u00e9\n\t\/\\ \ud83d\ude00 \u0041", "utf8": "é 東京 😀"}"#,
             ["esc": "é\n\t/\\ 😀 A", "utf8": "é 東京 😀"]),
            (" \n{\"spaced\" : [ 1 , { } ] }\r\n", ["spaced": [1, [:]]]),
            (#"{"big": 123456789012345678901234567890, "small": 0.000001, "exp": 1.5e+10}"#,
             ["big": .double(123456789012345678901234567890), "small": 0.000001, "exp": 15_000_000_000]),
        ]
        for (text, expected) in cases {
            #expect(JSONLDGraph.document(text) == expected, "\(text)")
        }
    }

    /// Only an object or an array is a document; broken JSON is none.
    @Test func refusesWhatIsNotADocument() {
        let texts = [
            "", "1", "\"top-level string\"", "null", "true", "{", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "[01]", "[1.]",
            "[.5]", "[-]", "[1e]", "{\"a\":1}x", "[tru]", "[\"raw\u{01}control\"]", "[\"\\x\"]", "[\"unterminated]",
        ]
        for text in texts { #expect(JSONLDGraph.document(text) == nil, "\(text)") }
    }

    /// Where the grammar allows what a value cannot hold, the parser's
    /// decisions; the JSON reader before it gave these texts to
    /// `JSONDecoder`, which refused some of them whole.
    @Test func readsWhatTheGrammarAllowsAsTheParserDecides() {
        #expect(JSONLDGraph.document(#"{"a":1,"a":2}"#) == ["a": 2])
        #expect(JSONLDGraph.document(#"["\ud800", "\udc00x", "a\ud800\u0041"]"#) == ["\u{FFFD}", "\u{FFFD}x", "a\u{FFFD}A"])
        #expect(JSONLDGraph.document("[1e400, -1e400, 1e-400]") == [.double(.greatestFiniteMagnitude),
                                                                  .double(-.greatestFiniteMagnitude), 0])
    }

    @Test func nestingIsReadToTheParsersLimitAndRefusedPastIt() {
        let limit = JSONParser.maximumDepth
        // The innermost object is the limit's last level.
        func nested(_ depth: Int) -> String {
            String(repeating: "[", count: depth - 1) + #"{"@type":"Article","headline":"Deep"}"#
                + String(repeating: "]", count: depth - 1)
        }
        #expect(extract([Tag.jsonLD(nested(limit))]).title == "Deep")
        #expect(extract([Tag.jsonLD(nested(limit + 1))]).title == nil)
    }

    /// The rules' names: a repeated key's last value; an unpaired
    /// surrogate as U+FFFD in the text the preview shows.
    @Test func rulesReadThoseDecisions() {
        let repeated = extract([Tag.jsonLD(#"{"@type":"Article","headline":"First","headline":"Last"}"#)])
        #expect(repeated.title == "Last")
        let surrogate = extract([Tag.jsonLD(#"{"@type":"Article","headline":"Caf\u00e9 \ud800 bar"}"#)])
        #expect(surrogate.title == "Café \u{FFFD} bar")
    }

    /// A graph whose references lead back to themselves, or fan out at
    /// every level, ends: each walk follows at most
    /// `JSONLDGraph.referencesFollowed` references. (The self-reference
    /// overflowed the stack before.)
    @Test func referenceCyclesAndFanOutsEnd() {
        let cycle = #"{"@graph":[{"@type":"Article","headline":"h","author":{"@id":"x"},"image":{"@id":"x"}},"#
            + #"{"@id":"x","name":{"@id":"x"},"url":{"@id":"x"}}]}"#
        let metadata = extract([Tag.jsonLD(cycle)])
        #expect(metadata.title == "h")
        #expect(metadata.author == nil)
        #expect(metadata.image == nil)
        // 40 levels, each naming the next twice: 2^40 walks if every reference were followed.
        var nodes = (0..<40).map { #"{"@id":"n\#($0)","name":[{"@id":"n\#($0 + 1)"},{"@id":"n\#($0 + 1)"}]}"# }
        nodes.append(#"{"@id":"n40","name":"Ann Lee"}"#)
        nodes.append(#"{"@type":"Article","headline":"h","author":{"@id":"n0"}}"#)
        let fan = extract([Tag.jsonLD("[" + nodes.joined(separator: ",") + "]")])
        #expect(fan.title == "h")
        #expect(fan.author == nil)
        // One reference, as real graphs write them, is followed.
        let one = extract([Tag.jsonLD(#"[{"@id":"p","name":"Ann Lee"},{"@type":"Article","author":{"@id":"p"}}]"#)])
        #expect(one.author == "Ann Lee")
    }

    /// A reference stands for the first node with its `@id` and more
    /// members: of one member, the first with two or more; of two (an `@id`
    /// and a `@type`), the first with three or more.
    @Test func aReferenceStandsForTheFirstFullerNode() {
        let graph = JSONLDGraph(scripts: [#"[{"@id":"x"},{"@id":"x","name":"Short"},{"@id":"x","@type":"Person","name":"Full"},"#
            + #"{"@id":"x","@type":"Person","name":"Later","url":"https://a.example/"}]"#])
        #expect(graph.names(.object(["@id": "x"])) == ["Short"])
        #expect(graph.names(.object(["@id": "x", "@type": "Person"])) == ["Full"])
        #expect(graph.names(.object(["@id": "y"])) == [])
    }

    /// Inside a node a reference leads to, a walk visits at most
    /// `JSONLDGraph.valuesVisited` values (the array it finds there counts
    /// as one), however many it holds: many nodes that refer to one node of
    /// thousands of names would otherwise cost the square of the page. A
    /// node's own values are all read.
    @Test func aWalkVisitsABoundedNumberOfValuesThroughAReference() {
        let names = (0..<1_000).map { #""Name \#($0)""# }.joined(separator: ",")
        let graph = JSONLDGraph(scripts: [#"[{"@id":"p","@type":"Organization","name":[\#(names)]}]"#])
        let found = graph.names(.object(["@id": "p"]))
        #expect(found.count == JSONLDGraph.valuesVisited - 1)
        #expect(found.first == "Name 0")
        #expect(graph.names(graph.nodes.first?["name"]).count == 1_000)
        let urls = (0..<100).map { #""https://i.example/\#($0).jpg""# }.joined(separator: ",")
        let article = extract([Tag.jsonLD(#"{"@type":"Article","image":[\#(urls)]}"#)])
        #expect(article.images?.count == 100)
    }

    /// A page's blocks give at most `JSONLDGraph.maximumNodes` nodes, the
    /// first in document order.
    @Test func nodesPastTheLimitAreNotRead() {
        let limit = JSONLDGraph.maximumNodes
        func block(fillers: Int) -> String {
            "[" + String(repeating: #"{"@type":"Thing"},"#, count: fillers) + #"{"@type":"Article","headline":"Late"}]"#
        }
        #expect(JSONLDGraph(scripts: [block(fillers: limit + 500)]).nodes.count == limit)
        #expect(extract([Tag.jsonLD(block(fillers: limit - 1))]).title == "Late")
        #expect(extract([Tag.jsonLD(block(fillers: limit))]).title == nil)
        // Across blocks too.
        let split = [block(fillers: limit / 2), block(fillers: limit / 2)]
        #expect(JSONLDGraph(scripts: split).nodes.count == limit)
    }

    /// Hostile blocks of 100 KB (`[[[[…`, `{"a":{"a":…`), and the deepest
    /// block that is read, on a thread with a 1 MiB stack, an eighth of what
    /// the daemon's threads get on Linux (the cooperative pool's and the
    /// named ones: 8 MiB): the parser's bounded recursion, the graph's walk
    /// and the tree's release all fit, even with a debug build's frames
    /// (about 1.1 KB a level there; 600 KiB was measured to suffice).
    /// Recursion that followed the 100 KB block's nesting would need a
    /// hundred times that.
    @Test func hostileNestingFitsASmallStack() throws {
        let limit = JSONParser.maximumDepth
        let blocks = [
            String(repeating: "[", count: 100_000),
            String(repeating: #"{"a":"#, count: 20_000),
            String(repeating: "[", count: limit - 1) + #"{"@type":"Article","headline":"Deep"}"#
                + String(repeating: "]", count: limit - 1),
        ]
        let job = TitlesJob(blocks: blocks)
        try #require(job.run(stackBytes: 1024 * 1024))
        #expect(job.titles == [nil, nil, "Deep"])
    }
}

/// The titles the rules give for each of `blocks`, read on a thread of its own.
private final class TitlesJob: @unchecked Sendable {
    let blocks: [String]
    // Written by the thread before it ends, read after `pthread_join`.
    private(set) var titles: [String?] = []

    init(blocks: [String]) { self.blocks = blocks }

    func run() { titles = blocks.map { extract([Tag.jsonLD($0)]).title } }

    /// Runs on a new thread with a stack of `stackBytes` and waits for it;
    /// false when no such thread could be made.
    func run(stackBytes: Int) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, stackBytes) == 0 else { return false }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let created = pthread_create(&thread, &attributes, { context in
            guard let context else { return nil }
            Unmanaged<TitlesJob>.fromOpaque(context).takeRetainedValue().run()
            return nil
        }, context)
        guard created == 0 else {
            Unmanaged<TitlesJob>.fromOpaque(context).release()
            return false
        }
        return pthread_join(thread, nil) == 0
    }
}
