import Foundation
import JSONRPC
import LinkPeekTestSupport
import Testing

/// Tier 2: a client that writes 10,000 requests before reading any answer.
@Suite struct PipelineTests {
    @Test func tenThousandRequestsWithoutReadingDoNotDeadlock() async throws {
        let client = try TestClient(startReading: false)
        let blob = (0..<10_000).flatMap { id in
            client.framing.frame(Payload.single(.request(id: .int(id), method: "fetch", params: ["url": .string("https://fast/\(id)")])).encoded())
        }
        // Writing blocks until the server has read it all; it must, without anyone reading its output.
        let written = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                await Task.detached { client.sendRaw(blob) }.value
                return true
            }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                return false
            }
            defer { group.cancelAll() }
            return try await group.next() ?? false
        }
        #expect(written, "the server stopped reading its input")
        client.startReading()
        var seen = Set<JSONValue>()
        let deadline = ContinuousClock.now + .seconds(60)
        while seen.count < 10_000, ContinuousClock.now < deadline {
            for message in client.drain() {
                let id = message["id"] ?? .null
                #expect(!seen.contains(id), "answered twice: \(id)")
                #expect(message["result"] != nil)
                seen.insert(id)
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(seen.count == 10_000)
        #expect(try await client.shutdownAndExit() == 0)
    }
}
