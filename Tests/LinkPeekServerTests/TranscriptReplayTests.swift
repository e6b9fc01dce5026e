import Foundation
import JSONRPC
import LinkPeek
import LinkPeekTestSupport
import LinkPeekServer
import Testing

/// Tier 2: replays `protocol/examples/*.jsonl` against the in-process server
/// and the fake service, so the published transcripts stay true. The
/// matching rules are the ones `protocol/README.md` §9 gives to clients.
@Suite struct TranscriptReplayTests {
    static let examples: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("protocol/examples")

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: examples.path)) ?? []
        return files.filter { $0.hasSuffix(".jsonl") }.sorted()
    }

    static func replaying(_ tape: String) -> Settings {
        var settings = Settings()
        settings.replay = examples.appendingPathComponent(tape).path
        return settings
    }

    /// The kinds of step a transcript may hold (protocol/README.md §9).
    enum StepKind: String, CaseIterable {
        case comment, send, sendRaw, expect, expectUnordered, expectBatch, expectExit
    }

    /// The kind of `step`, by the key it carries; nil for a step no kind names.
    static func kind(of step: JSONValue) -> StepKind? {
        StepKind.allCases.first { step[$0.rawValue] != nil }
    }

    @Test func anUnknownStepKindIsNoKind() {
        #expect(Self.kind(of: ["expectt": ["id": 1]]) == nil)
        #expect(Self.kind(of: ["send": ["id": 1]]) == .send)
        #expect(Self.kind(of: ["comment": "x", "service": "engine"]) == .comment)
    }

    @Test func examplesExist() {
        #expect(Self.names.count >= 5)
    }

    @Test(arguments: TranscriptReplayTests.names)
    func replay(name: String) async throws {
        let text = try String(contentsOf: Self.examples.appendingPathComponent(name), encoding: .utf8)
        // A transcript whose first line says `"service": "engine"` runs on the
        // real engine, its cache in memory; the others on the fake service.
        let first = try text.split(separator: "\n").first.map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
        // `"service": "process"`: the transcript needs the daemon to build its
        // engine from `initializationOptions` (a replayed tape), which only the
        // real process does; Tests/integration/test_protocol_examples.py replays it.
        if case .string("process")? = first?["service"] { return }
        // One naming a `tape` (relative to protocol/examples) runs on the real engine replaying it.
        let service: any MetadataService =
            if case .string(let tape)? = first?["tape"] {
                LinkPeekEngine(settings: Self.replaying(tape), store: CacheStore(directory: nil))
            } else if case .string("engine")? = first?["service"] {
                LinkPeekEngine(settings: Settings(), store: CacheStore(directory: nil))
            } else {
                FakeService()
            }
        // Warnings reach the client as `window/logMessage`, as from the real daemon.
        let client = try TestClient(service: service, clientLog: ClientLog())
        for (number, line) in text.split(separator: "\n").enumerated() {
            let step = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            let context = "\(name):\(number + 1)"
            guard let kind = Self.kind(of: step) else {
                // A step this replay does not know would otherwise pass unchecked.
                Issue.record("\(context): unknown step kind \(step)")
                return
            }
            switch kind {
            case .comment:
                continue  // a note for readers (the first may also name the `service`)
            case .send:
                client.sendRaw(Array(try JSONEncoder().encode(step["send"])) + [0x0A])
            case .sendRaw:
                guard case .string(let raw)? = step["sendRaw"] else { Issue.record("\(context): sendRaw not a string"); return }
                client.sendRaw(Array(raw.utf8) + [0x0A])
            case .expect:
                let expected = step["expect"] ?? .null
                let actual = try await client.next(where: expecting(expected))
                #expect(matches(expected, actual), "\(context): expected \(expected), read \(actual)")
            case .expectUnordered:
                guard case .array(let expected)? = step["expectUnordered"] else { Issue.record("\(context): not an array"); return }
                var actual: [JSONValue] = []
                for _ in expected { actual.append(try await client.next(where: expecting(nil))) }
                #expect(matchesUnordered(expected, actual), "\(context): expected \(expected), read \(actual)")
            case .expectBatch:
                guard case .array(let expected)? = step["expectBatch"] else { Issue.record("\(context): not an array"); return }
                let actual = try await client.next(where: expecting(nil))
                guard case .array(let elements) = actual else {
                    Issue.record("\(context): expected a batch, read \(actual)")
                    continue
                }
                #expect(matchesUnordered(expected, elements), "\(context): expected \(expected), read \(actual)")
            case .expectExit:
                guard case .int(let code)? = step["expectExit"] else { Issue.record("\(context): not an integer"); return }
                #expect(try await client.exitCode() == Int32(code), "\(context)")
            }
        }
        #expect(client.drain().filter { !isLog($0) }.isEmpty, "\(name): unexpected messages left")
    }
}

/// `window/logMessage` is informational and depends on the service and the
/// network: a transcript lists the ones it checks, and the others are skipped.
func isLog(_ message: JSONValue) -> Bool { message["method"] == .string("window/logMessage") }

/// The next message for an expectation: a log message only when one is expected.
func expecting(_ expected: JSONValue?) -> (JSONValue) -> Bool {
    let wantsLog = expected.map(isLog) ?? false
    return { wantsLog || !isLog($0) }
}

/// `expected` matches `actual` by the loose rules: objects by subset,
/// `"$any"` for any present value, numbers numerically, arrays elementwise.
func matches(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
    switch (expected, actual) {
    case (.string("$any"), _):
        return true
    case (.object(let expected), .object(let actual)):
        return expected.allSatisfy { key, value in actual[key].map { matches(value, $0) } ?? false }
    case (.array(let expected), .array(let actual)):
        return expected.count == actual.count && zip(expected, actual).allSatisfy(matches)
    case (.int(let a), .double(let b)), (.double(let b), .int(let a)):
        return Double(a) == b
    default:
        return expected == actual
    }
}

func matchesUnordered(_ expected: [JSONValue], _ actual: [JSONValue]) -> Bool {
    guard expected.count == actual.count else { return false }
    var remaining = actual
    for pattern in expected {
        guard let index = remaining.firstIndex(where: { matches(pattern, $0) }) else { return false }
        remaining.remove(at: index)
    }
    return true
}
