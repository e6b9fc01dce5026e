import JSONRPC
import LinkPeekTestSupport
import Testing

/// Tier 2: `$/progress` order, merging, and silence after the response.
@Suite struct ProgressTests {
    @Test func beginReportsEndThenResponseThenNothing() async throws {
        let client = try TestClient()
        client.send(.request(id: 1, method: "fetch", params: ["url": "https://events/", "workDoneToken": "w", "partialResultToken": 7]))
        // Take messages in order up to the response; a sentinel's answer must come next.
        while try await client.next()["id"] != 1 {}
        let after = try await client.messagesBeforeSentinel()
        #expect(after.isEmpty, "nothing may follow the response: \(after)")
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func sequenceIsOrderedAndMerged() async throws {
        let client = try TestClient()
        client.send(.request(id: 1, method: "fetch", params: ["url": "https://events/", "workDoneToken": "w", "partialResultToken": 7]))
        // Wait for the response, then read everything that came before it, in order.
        var received: [JSONValue] = []
        while true {
            let message = try await client.next()
            received.append(message)
            if message["id"] == 1 { break }
        }
        let work = received.filter { $0["params"]?["token"] == "w" }.compactMap { $0["params"]?["value"] }
        let kinds = work.compactMap { value -> String? in
            if case .string(let kind)? = value["kind"] { return kind }
            return nil
        }
        #expect(kinds.first == "begin")
        #expect(kinds.last == "end")
        #expect(kinds.dropFirst().dropLast().allSatisfy { $0 == "report" })
        #expect(kinds.filter { $0 == "begin" }.count == 1 && kinds.filter { $0 == "end" }.count == 1)
        // 104 events in two bursts become a handful of reports.
        #expect(kinds.count <= 8, "bursts not merged: \(kinds)")
        #expect(work.first?["stage"] == "resolving")
        #expect(work.last?["stage"] == "icon")
        #expect(work.last?["bytes"] == 100_000)
        let partials = received.filter { $0["params"]?["token"] == 7 }
        #expect(partials.count == 1)
        #expect(partials.first?["params"]?["value"]?["originalURL"] == "https://events/")
        #expect(received.last?["result"]?["summary"] == "complete")
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func cancelledFetchEndsItsProgressBeforeTheResponse() async throws {
        let client = try TestClient()
        client.send(.request(id: 1, method: "fetch", params: ["url": "https://events/", "workDoneToken": "w"]))
        _ = try await client.next { $0["params"]?["value"]?["kind"] == "begin" }
        client.notify("$/cancelRequest", ["id": 1])
        var received: [JSONValue] = []
        while true {
            let message = try await client.next()
            received.append(message)
            if message["id"] == 1 { break }
        }
        #expect(received.last?.errorCode == -32800)
        #expect(received.dropLast().last?["params"]?["value"]?["kind"] == "end")
        let after = try await client.messagesBeforeSentinel()
        #expect(after.isEmpty, "nothing may follow the response: \(after)")
        #expect(try await client.shutdownAndExit() == 0)
    }

    /// A fetch that sends no event (the fake's `fast`, like a cache hit)
    /// still gets `begin` and `end` on its token, before the response.
    @Test func aFetchWithoutEventsStillGetsBeginAndEnd() async throws {
        let client = try TestClient()
        client.send(.request(id: 1, method: "fetch", params: ["url": "https://fast/", "workDoneToken": "w"]))
        var received: [JSONValue] = []
        while true {
            let message = try await client.next()
            received.append(message)
            if message["id"] == 1 { break }
        }
        let kinds = received.dropLast().map { $0["params"]?["value"]?["kind"] }
        #expect(kinds == ["begin", "end"])
        #expect(received.first?["params"]?["token"] == "w")
        #expect(received.last?["result"] != nil)
        #expect(try await client.messagesBeforeSentinel().isEmpty)
        #expect(try await client.shutdownAndExit() == 0)
    }
}
