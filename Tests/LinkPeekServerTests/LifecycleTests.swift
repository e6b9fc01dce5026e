import Foundation
import JSONRPC
import LinkPeek
import LinkPeekServer
import LinkPeekTestSupport
import Testing

/// Tier 2: initialize, shutdown, exit, end of input, framings and batches.
@Suite struct LifecycleTests {
    @Test func initializeShutdownExit() async throws {
        let client = try TestClient()
        let initialized = try await client.request(1, "initialize", ["initializationOptions": ["allowPrivateNetwork": true, "timeout": 5]])
        #expect(initialized["result"]?["serverInfo"]?["name"] == "linkpeek")
        #expect(initialized["result"]?["capabilities"]?["fetchProvider"] == true)
        client.notify("initialized", [:])
        let again = try await client.request(2, "initialize", nil)
        #expect(again.errorCode == -32600)
        #expect(again.errorMessage == "initialize may only be sent once")
        let shutdown = try await client.request(3, "shutdown")
        #expect(shutdown["result"] == .null)
        let refused = try await client.request(4, "fetch", ["url": "https://fast/"])
        #expect(refused.errorCode == -32600)
        #expect(refused.errorMessage == "server is shutting down")
        client.notify("exit")
        #expect(try await client.exitCode() == 0)
    }

    @Test func badInitializationOptionsLeaveTheServerUninitialised() async throws {
        let client = try TestClient()
        let wrongType = try await client.request(1, "initialize", ["initializationOptions": ["timeout": "soon"]])
        #expect(wrongType.errorMessage == "initializationOptions.timeout must be a number")
        let wrongValue = try await client.request(2, "initialize", ["initializationOptions": ["maxConcurrency": 0]])
        #expect(wrongValue.errorMessage == "initializationOptions.maxConcurrency must be an integer from 1 to 1024")
        let good = try await client.request(3, "initialize", ["processId": nil, "initializationOptions": [:]])
        #expect(good["result"]?["serverInfo"]?["version"] != nil)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func exitWithoutShutdownIsStatusOne() async throws {
        let client = try TestClient()
        let cached = try await client.request(0, "getCached", ["url": "https://fast/"])
        #expect(cached["result"] == .null)
        client.notify("exit")
        #expect(try await client.exitCode() == 1)
    }

    @Test func endOfInputCancelsRunningFetchesAndExitsZero() async throws {
        let service = FakeService()
        let client = try TestClient(service: service)
        client.send(.request(id: 1, method: "fetch", params: ["url": "https://slow/"]))
        try await service.wait(until: { $0.fetchCount == 1 }, "the fetch started")
        #expect(try await client.closeInput() == 0)
        let answer = try await client.response(1)
        #expect(answer.errorCode == -32800)
        // The service was shut down before the session returned (the
        // executable exits next: the transfers' threads must have ended).
        #expect(service.shutdownCount == 1)
    }

    @Test func exitShutsTheServiceDown() async throws {
        let service = FakeService()
        let client = try TestClient(service: service)
        client.send(.request(id: 1, method: "fetch", params: ["url": "https://fast/"]))
        _ = try await client.response(1)
        #expect(try await client.shutdownAndExit() == 0)
        #expect(service.shutdownCount == 1)
    }

    @Test func lspFramingIsAnsweredInLSPFraming() async throws {
        let client = try TestClient(framing: .lsp)
        let answer = try await client.request("a", "getCached", ["url": "https://x/"])
        #expect(answer["result"] == .null)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func badInputIsAnsweredAndTheSessionGoesOn() async throws {
        let client = try TestClient()
        client.sendRaw(Array("{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\": \n".utf8))
        let parseError = try await client.next()
        #expect(parseError.errorCode == -32700)
        #expect(parseError["id"] == .null)
        client.sendRaw(Array("{\"id\": 6, \"method\": \"getCached\"}\n".utf8))
        #expect(try await client.response(6).errorCode == -32600)
        client.send(.request(id: 7, method: "nosuch", params: nil))
        #expect(try await client.response(7).errorCode == -32601)
        let exitWithId = try await client.request(9, "exit")
        #expect(exitWithId.errorMessage == "exit is a notification: send it without an id")
        client.send(.response(id: 99, result: .success("ignored")))
        client.notify("nosuch/notification", ["x": 1])
        let after = try await client.request(8, "getCached", ["url": "https://x/"])
        #expect(after["result"] == .null)
        #expect(client.drain().isEmpty)
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func batchesAreAnsweredAsOneArray() async throws {
        let client = try TestClient()
        client.sendRaw(Array("[]\n".utf8))
        #expect(try await client.next().errorCode == -32600)
        client.send(.batch([.notification(method: "initialized", params: nil)]))
        client.send(.batch([
            .request(id: 1, method: "fetch", params: ["url": "https://delay/50"]),
            .notification(method: "initialized", params: nil),
            .request(id: 2, method: "nosuch", params: nil),
        ]))
        let batch = try await client.next { if case .array = $0 { true } else { false } }
        guard case .array(let answers) = batch else { return }
        #expect(answers.count == 2)
        #expect(Set(answers.compactMap { $0["id"] }) == [1, 2])
        #expect(client.drain().isEmpty)
        #expect(try await client.shutdownAndExit() == 0)
    }
}
