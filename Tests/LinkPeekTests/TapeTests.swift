import FoundationEssentials
import LogCapture
import Testing

@testable import LinkPeek

/// The record/replay tape: stable names, a round trip through the directory, the clock.
struct TapeTests {
    @Test func fileNamesAreStableHashes() {
        #expect(Tape.fileName(for: "") == "cbf29ce484222325.bin")
        #expect(Tape.fileName(for: "a") == "af63dc4c8601ec8c.bin")
        #expect(Tape.fileName(for: "https://a.test/") != Tape.fileName(for: "https://a.test"))
    }

    @Test func recordsAndReplays() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "tape-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tape = try Tape.forRecording(at: path)
        let entry = Tape.Entry(
            url: "https://a.test/", finalURL: "https://a.test/b", status: 200, headers: ["content-type": "text/html"],
            redirects: [Tape.Redirect(url: "https://a.test/", status: 301)], body: "", bytesRead: 3, truncated: false)
        let log = LogCapture()
        tape.record(entry, body: [1, 2, 3], logger: log.logger(label: "tape"))
        #expect(log.all.isEmpty)
        let replay = try Tape.forReplay(at: path)
        let (found, body) = try #require(replay.lookup("https://a.test/", logger: log.logger(label: "tape")))
        #expect(body == [1, 2, 3])
        #expect(found.finalURL == "https://a.test/b" && found.redirects.count == 1)
        #expect(found.body == "bodies/" + Tape.fileName(for: "https://a.test/"))
        #expect(replay.lookup("https://other.test/", logger: log.logger(label: "tape")) == nil)
    }

    @Test func twoPostsToOneURLAreTwoEntriesAndAGetIsAThird() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "tape-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tape = try Tape.forRecording(at: path)
        let log = LogCapture()
        let url = "https://api.a.test/graphql"
        let first = try #require(Tape.requestKey(method: "POST", body: Array(#"{"n":1}"#.utf8)))
        let second = try #require(Tape.requestKey(method: "POST", body: Array(#"{"n":2}"#.utf8)))
        #expect(first != second && first.hasPrefix("POST "))
        #expect(Tape.requestKey(method: "GET", body: nil) == nil)
        for (request, byte) in [(first, UInt8(1)), (second, 2)] as [(String?, UInt8)] + [(nil, 3)] {
            let entry = Tape.Entry(
                url: url, request: request, finalURL: url, status: 200, headers: [:], redirects: [], body: "",
                bytesRead: 1, truncated: false)
            tape.record(entry, body: [byte], logger: log.logger(label: "tape"))
        }
        let replay = try Tape.forReplay(at: path)
        #expect(replay.lookup(url, request: first, logger: log.logger(label: "tape"))?.1 == [1])
        #expect(replay.lookup(url, request: second, logger: log.logger(label: "tape"))?.1 == [2])
        #expect(replay.lookup(url, logger: log.logger(label: "tape"))?.1 == [3])
        #expect(replay.lookup(url, request: "POST 0000000000000000", logger: log.logger(label: "tape")) == nil)
        #expect(log.all.isEmpty)
    }

    @Test func aBodyThatCannotBeWrittenIsAWarning() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "tape-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tape = try Tape.forRecording(at: path)
        // The tape's directory is gone (a file in its place): the fetch goes on, the log says why.
        try FileManager.default.removeItem(atPath: path)
        try Data("not a directory".utf8).write(to: URL(filePath: path))
        let entry = Tape.Entry(
            url: "https://a.test/", finalURL: "https://a.test/", status: 200, headers: [:],
            redirects: [], body: "", bytesRead: 1, truncated: false)
        let log = LogCapture()
        tape.record(entry, body: [1], logger: log.logger(label: "tape"))
        let warnings = log.all.filter { $0.level == .warning }
        #expect(warnings.map(\.message) == ["cannot record a body on the tape", "cannot write the tape's index"])
        #expect(warnings.first?.metadata["url"] == "https://a.test/")
    }

    @Test func aBodyThatCannotBeReadIsAWarningAndNotReplayed() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "tape-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let entry = Tape.Entry(
            url: "https://a.test/", finalURL: "https://a.test/", status: 200, headers: [:],
            redirects: [], body: "", bytesRead: 1, truncated: false)
        let log = LogCapture()
        try Tape.forRecording(at: path).record(entry, body: [1], logger: log.logger(label: "tape"))
        try FileManager.default.removeItem(atPath: path + "/bodies/" + Tape.fileName(for: "https://a.test/"))
        #expect(try Tape.forReplay(at: path).lookup("https://a.test/", logger: log.logger(label: "tape")) == nil)
        let warnings = log.all.filter { $0.level == .warning }
        #expect(warnings.map(\.message) == ["cannot read a body on the tape"])
        #expect(warnings.first?.metadata["url"] == "https://a.test/")
        #expect(warnings.first?.metadata["body"] == "bodies/" + Tape.fileName(for: "https://a.test/"))
    }

    @Test func anUnreadableIndexIsNotRecordedOver() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "tape-\(UInt64.random(in: 0...UInt64.max))").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: URL(filePath: path + "/index.json"))
        #expect(throws: (any Error).self) { try Tape.forRecording(at: path) }
        #expect(try Data(contentsOf: URL(filePath: path + "/index.json")) == Data("{not json".utf8))
        // A directory without an index is a new tape.
        try FileManager.default.removeItem(atPath: path + "/index.json")
        _ = try Tape.forRecording(at: path)
    }

    @Test func clockParsesISO8601Only() {
        #expect(Settings.parseClock("2026-01-01T00:00:00Z") != nil)
        #expect(Settings.parseClock("yesterday") == nil)
        #expect(Settings.tapeProblem(record: nil, replay: nil, clock: "1/1/2026") { "--\($0)" }?.hasPrefix("--clock ") == true)
    }
}
