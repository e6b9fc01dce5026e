import Dispatch
import Glibc
import Synchronization
import Testing
import Threading

/// Set by the thread-exit destructor below, once it has run (after a pause).
private let destructorRan = Atomic<Int>(0)

/// A thread-specific value whose destructor takes its time, as a library's
/// per-thread state may (OpenSSL frees its own there).
private let slowKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key) { _ in
        usleep(200_000)
        destructorRan.store(1, ordering: .sequentiallyConsistent)
    }
    return key
}()

/// `JoinableThread.join` returns once the thread has ended, its thread-exit
/// destructors included, and gives up at its deadline while the closure runs.
@Suite(.serialized) struct JoinableThreadTests {
    @Test func joinWaitsForTheThreadExitDestructors() {
        let key = slowKey
        let thread = JoinableThread(name: "linkpeek.test") {
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        }
        #expect(thread.join(until: .now() + 10))
        #expect(destructorRan.load(ordering: .sequentiallyConsistent) == 1)
        // A second join has nothing left to wait for.
        #expect(thread.join(until: .now()))
    }

    @Test func joinGivesUpAtItsDeadlineWhileTheClosureRuns() {
        let release = DispatchSemaphore(value: 0)
        let thread = JoinableThread(name: "linkpeek.test") { _ = release.wait(timeout: .now() + 10) }
        #expect(!thread.join(until: .now() + .milliseconds(50)))
        release.signal()
        #expect(thread.join(until: .now() + 10))
    }
}
