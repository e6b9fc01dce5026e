import Synchronization
import Testing
@testable import LinkPeek

/// The coalescer's plain `run(_:_:)`, as the image engine's source fetches use it.
@Suite struct CoalescerPlainRunTests {
    /// Work that counts its runs, takes `milliseconds`, and says whether it was cancelled.
    final class Probe: Sendable {
        let runs = Mutex(0)
        let cancelled = Mutex(0)
        let finished = Mutex(0)

        func work(_ milliseconds: Int) -> @Sendable () async -> Result<Int, FetchError> {
            { [self] in
                runs.withLock { $0 += 1 }
                do {
                    try await Task.sleep(for: .milliseconds(milliseconds))
                } catch {
                    cancelled.withLock { $0 += 1 }
                    return .failure(.cancelled)
                }
                finished.withLock { $0 += 1 }
                return .success(42)
            }
        }
    }

    @Test func concurrentCallersShareOneRun() async {
        let flights = Coalescer<String, Int>()
        let probe = Probe()
        // The work goes on only once all five callers are in: none can come late.
        let gated: @Sendable () async -> Result<Int, FetchError> = {
            while flights.waiterCount(for: "k") < 5 { try? await Task.sleep(for: .milliseconds(1)) }
            return await probe.work(0)()
        }
        let outcomes = await withTaskGroup(of: Result<Int, FetchError>.self) { group in
            for _ in 0..<5 { group.addTask { await flights.run("k", gated) } }
            var all: [Result<Int, FetchError>] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.count == 5 && outcomes.allSatisfy { (try? $0.get()) == 42 })
        #expect(probe.runs.withLock { $0 } == 1)
        // Finished flights are forgotten: the next caller runs the work again.
        _ = await flights.run("k", probe.work(1))
        #expect(probe.runs.withLock { $0 } == 2)
    }

    @Test func aCancelledWaiterLeavesAtOnceAndTheOthersGetTheResult() async throws {
        let flights = Coalescer<String, Int>()
        let probe = Probe()
        // The work ends only when the test opens the gate: an order, not 2 s against a loaded machine.
        let gate = Mutex(false)
        let gated: @Sendable () async -> Result<Int, FetchError> = {
            while !gate.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(1)) }
            return await probe.work(0)()
        }
        let first = Task { await flights.run("k", gated) }
        try await eventually { flights.waiterCount(for: "k") == 1 }
        let second = Task { await flights.run("k", gated) }
        try await eventually { flights.waiterCount(for: "k") == 2 }
        first.cancel()
        #expect(await first.value == .failure(.cancelled))
        // The cancelled waiter was answered while the shared work still ran (it cannot end before the gate).
        #expect(probe.finished.withLock { $0 } == 0, "the cancelled waiter waited for the work")
        gate.withLock { $0 = true }
        #expect(await second.value == .success(42))
        #expect(probe.finished.withLock { $0 } == 1)
        #expect(probe.runs.withLock { $0 } == 1 && probe.cancelled.withLock { $0 } == 0)
    }

    @Test func theWorkIsCancelledWhenTheLastWaiterLeaves() async throws {
        let flights = Coalescer<String, Int>()
        let probe = Probe()
        let waiters = (0..<3).map { _ in Task { await flights.run("k", probe.work(60_000)) } }
        try await eventually { flights.waiterCount(for: "k") == 3 && probe.runs.withLock { $0 } == 1 }
        for waiter in waiters { waiter.cancel() }
        for waiter in waiters { #expect(await waiter.value == .failure(.cancelled)) }
        // The shared task sees its cancellation (bounded: `eventually` fails loudly after 10 s).
        try await eventually { probe.cancelled.withLock { $0 } == 1 }
        #expect(probe.cancelled.withLock { $0 } == 1)
        #expect(await flights.run("k", probe.work(1)) == .success(42), "a later caller starts afresh")
    }
}
