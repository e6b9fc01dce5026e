@testable import LinkPeekServer
import LinkPeek
import Synchronization
import Testing

/// Tier 1: the shared background fetch a hover waits on — every way a wait
/// ends (done, budget, cancel), and what it knows meanwhile.
@Suite struct PreviewFlightTests {
    @Test func aZeroBudgetReturnsAtOnceWithWhatIsKnown() async {
        let flight = PreviewFlight()
        var partial = LinkMetadata(originalURL: "https://e.com/")
        partial.title = "Head"
        flight.handle(.partial(partial))
        await flight.wait(atMost: .zero, listener: nil)
        #expect(flight.snapshot.outcome == nil)
        #expect(flight.snapshot.partial?.title == "Head")
    }

    @Test func finishingEndsEveryWaitAndLaterWaitsReturnAtOnce() async {
        let flight = PreviewFlight()
        let start = ContinuousClock.now
        let events = Mutex(0)
        async let first: Void = flight.wait(atMost: .seconds(30), listener: { _ in events.withLock { $0 += 1 } })
        async let second: Void = flight.wait(atMost: .seconds(30), listener: nil)
        try? await Task.sleep(for: .milliseconds(20))
        flight.handle(.progress(stage: .downloading, bytes: 10))
        flight.finish(.success(LinkMetadata(originalURL: "https://e.com/")))
        _ = await (first, second)
        #expect(events.withLock { $0 } == 1)
        await flight.wait(atMost: .seconds(30), listener: nil)
        #expect(flight.snapshot.outcome != nil)
        // Far from the 30 s budget: the waits ended on the outcome.
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func cancellingTheWaiterEndsOnlyItsWait() async {
        let flight = PreviewFlight()
        let start = ContinuousClock.now
        let waiter = Task { await flight.wait(atMost: .seconds(30), listener: nil) }
        try? await Task.sleep(for: .milliseconds(20))
        waiter.cancel()
        await waiter.value
        #expect(flight.snapshot.outcome == nil)
        // A wait cancelled before it starts returns at once too.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await flight.wait(atMost: .seconds(30), listener: nil)
        }
        await early.value
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func theBudgetEndsAWait() async {
        let flight = PreviewFlight()
        let start = ContinuousClock.now
        await flight.wait(atMost: .milliseconds(50), listener: nil)
        #expect(ContinuousClock.now - start >= .milliseconds(50))
        #expect(flight.snapshot.outcome == nil)
    }
}
