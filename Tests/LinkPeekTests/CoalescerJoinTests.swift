import Testing

@testable import LinkPeek

/// A caller that joins a fetch another started is told so (`CacheTrace.joined`,
/// the HTTP front's `X-Cache: joined`); the one that started it is not.
struct CoalescerJoinTests {
    @Test
    func theWaiterThatJoinsIsNotedAndTheStarterIsNot() async throws {
        let coalescer = Coalescer<String, LinkMetadata>()
        let work = GatedWork()
        let (starter, joiner) = (CacheTrace(), CacheTrace())
        let (first, second) = (coalescer.makeWaiterID(), coalescer.makeWaiterID())
        async let a = CacheTrace.$current.withValue(starter) {
            await coalescer.run(key: "k", waiter: first, events: { _ in }) { _ in await work.run(title: "t") }
        }
        // States, not pauses: the first is in (and its work started) before the second asks.
        try await eventually { coalescer.waiterCount(for: "k") == 1 && work.starts.withLock { $0 } == 1 }
        async let b = CacheTrace.$current.withValue(joiner) {
            await coalescer.run(key: "k", waiter: second, events: { _ in }) { _ in await work.run(title: "t") }
        }
        try await eventually { coalescer.waiterCount(for: "k") == 2 }
        #expect(joiner.joined)
        #expect(!starter.joined)
        #expect(work.starts.withLock { $0 } == 1)
        coalescer.leave(waiter: first, with: .cancelled)
        coalescer.leave(waiter: second, with: .cancelled)
        _ = await (a, b)
    }

    /// A subresource's shared fetch (`run(_:_:)`) is not the caller's answer: not noted.
    @Test
    func aSharedSubresourceIsNotNoted() async throws {
        let coalescer = Coalescer<String, LinkMetadata>()
        let work = GatedWork()
        let joiner = CacheTrace()
        let first = coalescer.makeWaiterID()
        async let a = coalescer.run(key: "k", waiter: first, events: { _ in }) { _ in await work.run(title: "t") }
        try await eventually { coalescer.waiterCount(for: "k") == 1 }
        let task = Task {
            await CacheTrace.$current.withValue(joiner) { await coalescer.run("k") { await work.run(title: "t") } }
        }
        try await eventually { coalescer.waiterCount(for: "k") == 2 }
        #expect(!joiner.joined)
        coalescer.leave(waiter: first, with: .cancelled)
        task.cancel()
        _ = await (a, task.value)
    }
}
