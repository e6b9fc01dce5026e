import LinkPeekTestSupport
import Testing

@testable import Curl

/// Records the order of what the transfer engine tells a consumer.
final class StageRecordingConsumer: TransferConsumer {
    private var events: [String] = []
    func connecting() { events.append("connecting") }
    func requestSent() { events.append("requestSent") }
    func responseStarted(_ head: ResponseHead) -> TransferDecision {
        events.append("responseStarted")
        return .proceed
    }
    func received(_ bytes: UnsafeRawBufferPointer) -> TransferDecision { .proceed }
    func finish() -> [String] { events }
}

/// Tier 2 (a real libcurl against a loopback server): `requestSent` comes
/// from libcurl's own timing, once, before the response, on a new
/// connection after `connecting` and on a kept-alive one without it
/// (a reused connection must not look like a name lookup).
struct RequestSentTests {
    @Test func requestSentFollowsTheConnectAndComesAloneOnAKeptConnection() async throws {
        let server = try KeepAliveServer()
        defer { server.stop() }
        let engine = TransferEngine()
        defer { engine.shutdown() }
        let request = TransferRequest(
            url: "http://127.0.0.1:\(server.port)/", userAgent: "test", timeout: 10,
            policy: AddressPolicy(allowPrivateNetwork: true))
        let first = try await engine.perform(request, consumer: StageRecordingConsumer())
        #expect(first.output == ["connecting", "requestSent", "responseStarted"])
        let second = try await engine.perform(request, consumer: StageRecordingConsumer())
        #expect(second.output == ["requestSent", "responseStarted"])
        #expect(server.connections == 1)
    }
}
