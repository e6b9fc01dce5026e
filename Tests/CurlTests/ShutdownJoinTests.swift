import Dispatch
import Glibc
import LinkPeekTestSupport
import Synchronization
import Testing

@testable import Curl

/// What the thread-exit destructor below saw: 0 before, 1 once it has run.
private let threadExitDestructorRan = Atomic<Int>(0)

/// A thread-specific value whose destructor runs when the curl thread that
/// set it ends, and takes its time, as OpenSSL's per-thread state does
/// (a thread's error state and random generators are freed there).
private let slowThreadExitKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { _ in
        usleep(300_000)
        threadExitDestructorRan.store(1, ordering: .sequentiallyConsistent)
    }
    return key
}()

/// Sets the slow destructor's value on the curl thread that runs the transfer.
final class ThreadStateConsumer: TransferConsumer {
    func connecting() { pthread_setspecific(slowThreadExitKey, UnsafeRawPointer(bitPattern: 1)) }
    func requestSent() {}
    func responseStarted(_ head: ResponseHead) -> TransferDecision { .proceed }
    func received(_ bytes: UnsafeRawBufferPointer) -> TransferDecision { .proceed }
    func finish() -> Int { 0 }
}

/// Tier 2 (a real libcurl against a loopback server): `shutdown` returns
/// only once the curl threads have ended, their thread-exit destructors
/// included. A command exits right after it; when it returned at the end
/// of the loops' closures, the process's exit handlers (`OPENSSL_cleanup`)
/// ran alongside a curl thread's OpenSSL destructors, and the two freed the
/// same memory (a heap corruption about once in 8,000 whole-process fetches).
@Suite(.serialized) struct ShutdownJoinTests {
    @Test func shutdownWaitsForTheCurlThreadsThreadExitDestructors() async throws {
        let server = try KeepAliveServer()
        defer { server.stop() }
        let engine = TransferEngine()
        let request = TransferRequest(
            url: "http://127.0.0.1:\(server.port)/", userAgent: "test", timeout: 10,
            policy: AddressPolicy(allowPrivateNetwork: true))
        _ = try await engine.perform(request, consumer: ThreadStateConsumer())
        #expect(threadExitDestructorRan.load(ordering: .sequentiallyConsistent) == 0)
        engine.shutdown()
        #expect(threadExitDestructorRan.load(ordering: .sequentiallyConsistent) == 1)
    }
}
