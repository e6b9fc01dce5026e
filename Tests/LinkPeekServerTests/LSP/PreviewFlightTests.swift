@testable import LinkPeekServer
import LinkPeek
import Synchronization
import Testing

/// Tier 1: the shared background fetch a hover waits on — every way a wait
/// ends (done, budget, cancel), what it knows meanwhile, and that a listener
/// hears every event sent after its `join`. No verdict rests on a sleep:
/// a wait that should have ended and did not runs into its hour-long budget,
/// and the suite's time limit fails it loudly.
@Suite(.timeLimit(.minutes(1))) struct PreviewFlightTests {
    static let never: Duration = .seconds(3600)

    /// Waits, bounded, until `flight` has `count` waits parked.
    static func parked(_ flight: PreviewFlight, _ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while flight.parkedWaits < count {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    @Test func aZeroBudgetReturnsAtOnceWithWhatIsKnown() async {
        let flight = PreviewFlight()
        var partial = LinkMetadata(originalURL: "https://e.com/")
        partial.title = "Head"
        flight.handle(.partial(partial))
        await flight.wait(flight.join(listener: nil), atMost: .zero)
        #expect(flight.snapshot.outcome == nil)
        #expect(flight.snapshot.partial?.title == "Head")
    }

    @Test func aListenerHearsEveryEventSentAfterItJoinedEvenBeforeItWaits() async {
        let flight = PreviewFlight()
        let stages = Mutex<[FetchStage]>([])
        flight.handle(.progress(stage: .resolving, bytes: 0))
        let ticket = flight.join(listener: { event in
            if case .progress(let stage, _) = event { stages.withLock { $0.append(stage) } }
        })
        // Sent between the join and the wait: a hover suspends there.
        flight.handle(.progress(stage: .downloading, bytes: 10))
        flight.finish(.success(LinkMetadata(originalURL: "https://e.com/")))
        flight.handle(.progress(stage: .icon, bytes: 10))
        await flight.wait(ticket, atMost: Self.never)
        #expect(stages.withLock { $0 } == [.downloading])
    }

    @Test func finishingEndsEveryParkedWaitAndLaterWaitsReturnAtOnce() async throws {
        let flight = PreviewFlight()
        let events = Mutex(0)
        let first = flight.join(listener: { _ in events.withLock { $0 += 1 } })
        let second = flight.join(listener: nil)
        let waits = Task {
            async let a: Void = flight.wait(first, atMost: Self.never)
            async let b: Void = flight.wait(second, atMost: Self.never)
            _ = await (a, b)
        }
        try await Self.parked(flight, 2)
        flight.handle(.progress(stage: .downloading, bytes: 10))
        flight.finish(.success(LinkMetadata(originalURL: "https://e.com/")))
        await waits.value
        #expect(events.withLock { $0 } == 1)
        #expect(flight.parkedWaits == 0)
        await flight.wait(flight.join(listener: nil), atMost: Self.never)
        #expect(flight.snapshot.outcome != nil)
    }

    @Test func cancellingTheWaiterEndsOnlyItsWait() async throws {
        let flight = PreviewFlight()
        let other = flight.join(listener: nil)
        let otherWait = Task { await flight.wait(other, atMost: Self.never) }
        let ticket = flight.join(listener: nil)
        let waiter = Task { await flight.wait(ticket, atMost: Self.never) }
        try await Self.parked(flight, 2)
        waiter.cancel()
        await waiter.value
        #expect(flight.snapshot.outcome == nil)
        #expect(flight.parkedWaits == 1)
        // A wait cancelled before it starts returns at once too.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await flight.wait(flight.join(listener: nil), atMost: Self.never)
        }
        await early.value
        #expect(flight.parkedWaits == 1)
        otherWait.cancel()
        await otherWait.value
    }

    @Test func theBudgetEndsAWait() async {
        let flight = PreviewFlight()
        let start = ContinuousClock.now
        await flight.wait(flight.join(listener: nil), atMost: .milliseconds(50))
        #expect(ContinuousClock.now - start >= .milliseconds(50))
        #expect(flight.snapshot.outcome == nil)
    }
}
