import Dispatch
import Glibc
import Synchronization
import Testing
import Threading

/// `DetachedThread` runs its closure on a thread of its own, named as asked
/// (cut to what Linux keeps); `FreeMemory` gives freed heap back.
@Suite struct ThreadingTests {
    /// The calling thread's name, as `/proc` shows it, and its pthread id.
    static func currentThread() -> (name: String, id: pthread_t) {
        var bytes = [UInt8](repeating: 0, count: 64)
        let file = open("/proc/thread-self/comm", O_RDONLY)
        let count = file >= 0 ? bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) } : 0
        if file >= 0 { close(file) }
        let name = String(decoding: bytes[0..<max(0, count)], as: UTF8.self)
        return (name.hasSuffix("\n") ? String(name.dropLast()) : name, pthread_self())
    }

    /// Starts a thread called `name` and waits (up to 10 s) for what it saw.
    func seen(byThreadNamed name: String) -> (name: String, id: pthread_t)? {
        let seen = Mutex<(name: String, id: pthread_t)?>(nil)
        let done = DispatchSemaphore(value: 0)
        DetachedThread.start(name: name) {
            seen.withLock { $0 = Self.currentThread() }
            done.signal()
        }
        guard done.wait(timeout: .now() + 10) == .success else { return nil }
        return seen.withLock { $0 }
    }

    @Test func theClosureRunsOnANewThreadWithItsName() throws {
        let here = Self.currentThread()
        let there = try #require(seen(byThreadNamed: "linkpeek.test"))
        #expect(there.name == "linkpeek.test")
        #expect(there.id != here.id)
    }

    @Test func aLongNameIsCutToFifteenBytes() throws {
        let there = try #require(seen(byThreadNamed: "linkpeek.a-very-long-thread-name"))
        #expect(there.name == "linkpeek.a-very")
    }

    @Test func freedHeapIsGivenBack() {
        // Blocks under the mmap threshold (128 KiB) come from the heap; freed, they stay there until trimmed.
        let blocks = (0..<256).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 96 * 1024, alignment: 16) }
        for block in blocks { memset(block, 1, 96 * 1024) }
        for block in blocks { block.deallocate() }
        #expect(FreeMemory.giveBack())
    }
}
