import LinkPeekTestSupport
import Testing

@testable import Curl

/// Tier 2 (a real libcurl against a loopback server): connections are kept
/// between requests of the engine's profile, and never reused by a request
/// under another policy.
struct ConnectionReuseTests {
    private func request(_ port: UInt16, allowPrivate: Bool) -> TransferRequest {
        TransferRequest(
            url: "http://127.0.0.1:\(port)/", userAgent: "test", timeout: 10,
            policy: AddressPolicy(allowPrivateNetwork: allowPrivate))
    }

    @Test func requestsOfOneProfileShareAConnection() async throws {
        let server = try KeepAliveServer()
        defer { server.stop() }
        let engine = TransferEngine()
        defer { engine.shutdown() }
        for _ in 0..<3 {
            let result = try await engine.perform(request(server.port, allowPrivate: true), consumer: CountingConsumer())
            #expect(result.output == KeepAliveServer.body.count)
        }
        #expect(server.connections == 1)
    }

    @Test func aStricterPolicyNeverRidesOnAKeptConnection() async throws {
        let server = try KeepAliveServer()
        defer { server.stop() }
        let engine = TransferEngine()
        defer { engine.shutdown() }
        // Opens a connection to loopback, allowed by this policy, and keeps it.
        _ = try await engine.perform(request(server.port, allowPrivate: true), consumer: CountingConsumer())
        // The same URL under a policy that refuses loopback: refused at connect, not served by the kept connection.
        var refusal: CurlError?
        do {
            _ = try await engine.perform(request(server.port, allowPrivate: false), consumer: CountingConsumer())
        } catch {
            refusal = error
        }
        #expect(refusal?.kind == .blockedAddress)
        #expect(server.connections == 1)
    }
}
