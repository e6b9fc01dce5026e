import LinkPeekTestSupport
import LogCapture
import Testing

@testable import Curl

/// A refused address names the rule that refused it, and the transfer logs
/// the refusal at `info` with the address and the rule.
struct RefusalLogTests {
    @Test(arguments: [
        ("10.1.2.3", "10.0.0.0/8 private"),
        ("169.254.169.254", "169.254.0.0/16 link-local"),
        ("127.1", "127.0.0.0/8 loopback"),
        ("[::ffff:10.0.0.1]", "embeds 10.0.0.1, 10.0.0.0/8 private"),
        ("fd12:3456::1", "fc00:0:0:0:0:0:0:0/7 unique-local"),
        ("[::1]", "0:0:0:0:0:0:0:1/128 loopback"),
    ])
    func theRuleIsTheRangeThatRefused(host: String, rule: String) throws {
        let address = try #require(IPAddress(numericHost: host))
        #expect(AddressPolicy().refusingRule(for: address) == rule)
        #expect(AddressPolicy(allowPrivateNetwork: true).refusingRule(for: address) == nil)
    }

    @Test func aPublicAddressHasNoRule() throws {
        let address = try #require(IPAddress(numericHost: "93.184.216.34"))
        #expect(AddressPolicy().refusingRule(for: address) == nil)
        #expect(address.blockingRule == nil)
    }

    @Test func aRefusedConnectionIsLoggedWithTheAddressAndTheRule() async throws {
        let server = try KeepAliveServer()
        defer { server.stop() }
        let engine = TransferEngine()
        defer { engine.shutdown() }
        let capture = LogCapture()
        var request = TransferRequest(url: "http://127.0.0.1:\(server.port)/", userAgent: "test", timeout: 10)
        request.logger = capture.logger(label: "curl")
        await #expect(throws: CurlError.self) {
            _ = try await engine.perform(request, consumer: StageRecordingConsumer())
        }
        let refused = capture.records("address refused")
        #expect(refused.count == 1)
        #expect(refused.first?.level == .info)
        #expect(refused.first?.metadata["address"] == "127.0.0.1")
        #expect(refused.first?.metadata["rule"] == "127.0.0.0/8 loopback")
        #expect(server.connections == 0)
    }
}
