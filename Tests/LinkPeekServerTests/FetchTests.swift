import Foundation
import JSONRPC
import LinkPeek
import LinkPeekTestSupport
import Testing

/// Tier 2: fetch, its errors, the one-shot rule, cancel, getCached.
@Suite struct FetchTests {
    @Test func answersOutOfOrder() async throws {
        let client = try TestClient()
        client.send(.request(id: 1, method: "fetch", params: ["url": "https://delay/300"]))
        client.send(.request(id: 2, method: "fetch", params: ["url": "https://fast/"]))
        let first = try await client.next { $0["id"] != nil }
        #expect(first["id"] == 2)
        #expect(first["result"]?["title"] == "Title of https://fast/")
        #expect(try await client.response(1)["result"]?["originalURL"] == "https://delay/300")
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func invalidParamsNameTheField() async throws {
        let client = try TestClient()
        let cases: [(JSONValue?, String)] = [
            (["url": 42], "url must be a string"),
            (nil, "url is required"),
            (["url": nil], "url must be a string"),
            (["url": "https://fast/", "cachePolicy": "sometimes"], "cachePolicy must be one of default, reload, cacheOnly, staleWhileRevalidate"),
            (["url": "https://fast/", "timeout": 0], "timeout must be a number from 0.001 to 3600 (seconds)"),
            (["url": "https://fast/", "timeout": "soon"], "timeout must be a number"),
            (["url": "https://fast/", "providerId": true], "providerId must be a string or an integer"),
            (["url": "https://fast/", "fetchSubresources": 1], "fetchSubresources must be a boolean"),
            (["url": "https://fast/", "workDoneToken": 1.5], "workDoneToken must be a string or an integer"),
            ([1, 2], "params must be an object"),
        ]
        for (index, (params, message)) in cases.enumerated() {
            let answer = try await client.request(.int(index), "fetch", params)
            #expect(answer.errorCode == -32602)
            #expect(answer.errorMessage == message)
        }
        let cancel = try await client.request(100, "cancel", ["providerId": [1]])
        #expect(cancel.errorMessage == "providerId must be a string or an integer")
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func fetchErrorsCarryKindReasonStatus() async throws {
        let client = try TestClient()
        let failed = try await client.request(1, "fetch", ["url": "https://fail/"])
        #expect(failed.errorCode == -32000)
        #expect(failed.errorMessage == "Metadata fetch failed: the server answered HTTP 404.")
        #expect(failed["error"]?["data"] == ["kind": "failed", "reason": "httpStatus", "status": 404])
        let timedOut = try await client.request(2, "fetch", ["url": "https://timeout/"])
        #expect(timedOut.errorCode == -32005)
        #expect(timedOut["error"]?["data"] == ["kind": "timedOut"])
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func providerIsOneShot() async throws {
        let client = try TestClient()
        #expect(try await client.request(1, "fetch", ["url": "https://fast/"])["result"] != nil)
        let reused = try await client.request(2, "fetch", ["url": "https://fast/", "providerId": 1])
        #expect(reused.errorCode == -32003)
        #expect(reused.errorMessage == "Provider is one-shot and has already started.")
        #expect(reused["error"]?["data"] == ["kind": "providerReused"])
        // The string "1" is another provider.
        #expect(try await client.request(3, "fetch", ["url": "https://fast/", "providerId": "1"])["result"] != nil)
        // A running provider is refused too.
        client.send(.request(id: 4, method: "fetch", params: ["url": "https://slow/", "providerId": "p"]))
        let running = try await client.request(5, "fetch", ["url": "https://fast/", "providerId": "p"])
        #expect(running["error"]?["data"]?["kind"] == "providerReused")
        // So is a request id still in use.
        let inUse = try await client.request(4, "getCached", ["url": "https://fast/"])
        #expect(inUse.errorCode == -32600)
        #expect(try await client.shutdownAndExit() == 0)
        #expect(try await client.response(4).errorCode == -32800)
    }

    @Test func cancelByProviderIdAnswersPromptly() async throws {
        let service = FakeService()
        let client = try TestClient(service: service)
        client.send(.request(id: 1, method: "fetch", params: ["url": "https://slow/", "providerId": "p"]))
        try await service.wait(until: { $0.fetchCount == 1 }, "the fetch started")
        let cancel = try await client.request(2, "cancel", ["providerId": "p"])
        #expect(cancel["result"] == ["cancelled": true])
        // `https://slow/` runs for 60 s unless cancelled: an answer within the 30 s hang bound is the
        // cancel's. An order, not a time (how fast is bench_daemon.py's to report).
        let cancelled = try await client.response(1, timeout: 30)
        #expect(cancelled.errorCode == -32800)
        #expect(cancelled.errorMessage == "Metadata fetch cancelled.")
        #expect(cancelled["error"]?["data"] == ["kind": "cancelled"])
        let again = try await client.request(3, "cancel", ["providerId": "p"])
        #expect(again["result"] == ["cancelled": false])
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func cancelRequestByIdAndLateResultsAreDropped() async throws {
        let service = FakeService()
        let client = try TestClient(service: service)
        client.send(.request(id: "s", method: "fetch", params: ["url": "https://latch/"]))
        try await service.wait(until: { $0.fetchCount == 1 }, "the fetch started")
        client.notify("$/cancelRequest", ["id": "s"])
        let cancelled = try await client.response("s")
        #expect(cancelled.errorCode == -32800)
        // The fetch ignores the cancel and returns once the gate opens: its
        // result is dropped, and cancelling a finished id again is ignored quietly.
        service.openGate()
        try await service.wait(until: { $0.returnedCount == 1 }, "the stubborn fetch returned")
        client.notify("$/cancelRequest", ["id": "s"])
        let after = try await client.messagesBeforeSentinel()
        #expect(after.isEmpty, "after the cancel's answer: \(after)")
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func getCachedNeverFetches() async throws {
        var metadata = LinkMetadata(originalURL: "https://cached/")
        metadata.title = "Cached"
        metadata.fromCache = true
        let service = FakeService(cache: ["https://cached/": metadata])
        let client = try TestClient(service: service)
        let hit = try await client.request(1, "getCached", ["url": "https://cached/"])
        #expect(hit["result"] == ["originalURL": "https://cached/", "title": "Cached", "fromCache": true])
        let miss = try await client.request(2, "getCached", ["url": "https://other/"])
        #expect(miss["result"] == .null)
        #expect(service.fetchCount == 0)
        #expect(try await client.shutdownAndExit() == 0)
    }
}
