import Glibc
import LinkPeekTestSupport
import Testing

@testable import Curl

/// Counts the bytes it is given; nothing else.
final class CountingConsumer: TransferConsumer {
    private var count = 0
    func responseStarted(_ head: ResponseHead) -> TransferDecision { .proceed }
    func received(_ bytes: UnsafeRawBufferPointer) -> TransferDecision {
        count += bytes.count
        return .proceed
    }
    func finish() -> Int { count }
}

/// A loopback TCP socket that listens and never accepts: a client that
/// connects would wait there until its timeout.
final class SilentListener {
    let fd: Int32
    let port: UInt16

    init() throws {
        (fd, port) = try LoopbackSocket.listen()
    }

    /// True when a connection waits to be accepted.
    var hasPendingConnection: Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 200) > 0
    }

    deinit { close(fd) }
}


struct CancelBeforeSubmitTests {
    @Test func aTaskCancelledBeforeItsTransferStartsNeverConnects() async throws {
        let listener = try SilentListener()
        let engine = TransferEngine()
        defer { engine.shutdown() }
        let request = TransferRequest(
            url: "http://127.0.0.1:\(listener.port)/", userAgent: "test", timeout: 20,
            policy: AddressPolicy(allowPrivateNetwork: true))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await engine.perform(request, consumer: CountingConsumer())
        }
        // `cancelled`, not `timedOut`: it ended on the cancel, not at the 20 s timeout (no clock needed).
        await #expect(throws: CurlError.cancelled) { try await task.value }
        let connected = listener.hasPendingConnection
        #expect(!connected, "no connection may be made for a cancelled transfer")
    }
}
