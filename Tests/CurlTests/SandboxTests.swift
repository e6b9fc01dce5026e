import Foundation
import Glibc
import LinkPeekTestSupport
import Testing

/// `make test` runs the Swift tests in the loopback-only network namespace
/// (`Tests/sandbox.py`), like the other suites: no test can reach the
/// internet, and this one shows it. It runs where the sandbox says it is
/// (`LINKPEEK_SANDBOX=netns`) and under `CI=1`, where a missing sandbox is a
/// failure; a plain `swift test` on a workstation leaves it out, as it would
/// reach for a public address there.
private let sandboxRequired = ["netns"].contains(ProcessInfo.processInfo.environment["LINKPEEK_SANDBOX"])
    || ProcessInfo.processInfo.environment["CI"] == "1"

@Suite(.enabled(if: sandboxRequired, "outside Tests/sandbox.py (run `make test-swift`, or set CI=1)"))
struct SandboxTests {

    /// The interfaces of this process's network namespace.
    static func interfaces() throws -> [String] {
        let table = try String(contentsOfFile: "/proc/self/net/dev", encoding: .utf8)
        return table.split(separator: "\n").dropFirst(2).compactMap { line in
            line.split(separator: ":", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// A TCP connect to `address`:`port`, bounded by a 5 s send timeout; the errno when it fails, 0 when it succeeds.
    static func connectError(_ address: String, _ port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        var limit = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = port.bigEndian
        target.sin_addr.s_addr = inet_addr(address)
        let result = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0 ? 0 : errno
    }

    @Test func onlyLoopbackExists() throws {
        #expect(ProcessInfo.processInfo.environment["LINKPEEK_SANDBOX"] == "netns", "not run through Tests/sandbox.py")
        #expect(try Self.interfaces() == ["lo"])
    }

    @Test func loopbackConnectsAndNoOtherAddressIsRouted() throws {
        // Never tried outside the namespace: there it would leave the machine.
        try #require(try Self.interfaces() == ["lo"], "not in a loopback-only namespace")
        let listener = try LoopbackSocket.listen()
        defer { close(listener.fd) }
        #expect(Self.connectError("127.0.0.1", listener.port) == 0, "loopback is not up")
        // A non-loopback address (TEST-NET-1, never routed): no route here, refused at once.
        let error = Self.connectError("192.0.2.1", 80)
        #expect(error != 0, "a connect to a non-loopback address succeeded: the Swift tests are not sandboxed")
        #expect(error == ENETUNREACH, "expected no route (ENETUNREACH), got errno \(error)")
    }
}
