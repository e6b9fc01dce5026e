import Synchronization
import Testing

@testable import LinkPeek

/// Work that counts its starts and finishes only when cancelled (or after 30 s).
final class GatedWork: Sendable {
        let starts = Mutex(0)
        let cancelled = Mutex(false)

        func run(title: String) async -> Coalescer<String, LinkMetadata>.Outcome {
            starts.withLock { $0 += 1 }
            do {
                try await Task.sleep(for: .seconds(30))
            } catch {
                cancelled.withLock { $0 = true }
                return .failure(.cancelled)
            }
            var metadata = LinkMetadata(originalURL: title)
            metadata.title = title
            return .success(metadata)
        }
}

struct TimedOut: Error {}

/// Waits until `condition` holds, checking every 10 ms, for at most 10 s.
func eventually(_ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut() }
        try await Task.sleep(for: .milliseconds(10))
    }
}

final class Counter: Sendable {
    let value = Mutex(0)
    func bump() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

/// Shared work for the same key; each waiter can leave on its own.
struct CoalescerTests {
    @Test
    func twoWaitersShareOneRunAndLeaveIndependently() async throws {
        let coalescer = Coalescer<String, LinkMetadata>()
        let work = GatedWork()
        let first = coalescer.makeWaiterID()
        let second = coalescer.makeWaiterID()
        async let a = coalescer.run(key: "k", waiter: first, events: { _ in }) { _ in await work.run(title: "t") }
        async let b = coalescer.run(key: "k", waiter: second, events: { _ in }) { _ in await work.run(title: "t") }
        try await eventually { work.starts.withLock { $0 } >= 1 && coalescer.waiterCount(for: "k") == 2 }
        #expect(work.starts.withLock { $0 } == 1)

        coalescer.leave(waiter: first, with: .cancelled)
        #expect(await a == .failure(.cancelled))
        // A state, not a pause: the flight still has its other waiter, so nothing cancels the work.
        #expect(coalescer.waiterCount(for: "k") == 1)
        #expect(!work.cancelled.withLock { $0 }, "the other waiter still needs the work")

        coalescer.leave(waiter: second, with: .timedOut)
        #expect(await b == .failure(.timedOut))
        try await eventually { work.cancelled.withLock { $0 } }
        #expect(work.cancelled.withLock { $0 }, "the last waiter gone cancels the work")
    }

    /// Fails if each waiter ran its own work: the work counts its runs, and
    /// sends its one event only once both waiters are in, so each hears it once.
    @Test
    func eventsReachEveryWaiterAndResultsAreShared() async throws {
        let coalescer = Coalescer<String, LinkMetadata>()
        let (seenA, seenB, runs) = (Counter(), Counter(), Counter())
        let work: Coalescer<String, LinkMetadata>.Work = { flight in
            let run = runs.value.withLock { count -> Int in
                count += 1
                return count
            }
            while coalescer.waiterCount(for: "k") < 2 { try? await Task.sleep(for: .milliseconds(1)) }
            flight.send(.progress(stage: .downloading, bytes: 10))
            var metadata = LinkMetadata(originalURL: "u")
            metadata.title = "run \(run)"
            return .success(metadata)
        }
        async let a = coalescer.run(key: "k", waiter: coalescer.makeWaiterID(), events: { _ in seenA.bump() }, work: work)
        async let b = coalescer.run(key: "k", waiter: coalescer.makeWaiterID(), events: { _ in seenB.bump() }, work: work)
        let (ra, rb) = await (a, b)
        #expect(runs.count == 1)
        #expect((try? ra.get())?.title == "run 1")
        #expect(ra == rb)
        #expect(seenA.count == 1 && seenB.count == 1)
    }

    @Test
    func demandsDoNotSplitTheWorkAndPartialsReachOnlyThoseWhoAsked() async {
        let coalescer = Coalescer<String, LinkMetadata>()
        let (starts, partialsAsked, partialsUnasked) = (Counter(), Counter(), Counter())
        let seenDemand = Mutex(FlightDemand())
        let work: Coalescer<String, LinkMetadata>.Work = { flight in
            starts.bump()
            // Both waiters are in before the work asks for their demand: an order, not 100 ms.
            while coalescer.waiterCount(for: "k") < 2 { try? await Task.sleep(for: .milliseconds(1)) }
            seenDemand.withLock { $0 = flight.demand() }
            flight.send(.partial(LinkMetadata(originalURL: "u")))
            return .success(LinkMetadata(originalURL: "u"))
        }
        async let a = coalescer.run(
            key: "k", waiter: coalescer.makeWaiterID(), demand: FlightDemand(partials: true),
            events: { if case .partial = $0 { partialsAsked.bump() } }, work: work)
        async let b = coalescer.run(
            key: "k", waiter: coalescer.makeWaiterID(), demand: FlightDemand(data: true),
            events: { if case .partial = $0 { partialsUnasked.bump() } }, work: work)
        let (ra, rb) = await (a, b)
        #expect(ra == rb)
        #expect(starts.count == 1)
        #expect(partialsAsked.count == 1)
        #expect(partialsUnasked.count == 0)
        #expect(seenDemand.withLock { $0 } == FlightDemand(partials: true, data: true))
    }

    @Test
    func aLateJoinerFirstGetsTheLatestProgress() async throws {
        let coalescer = Coalescer<String, LinkMetadata>()
        let firstSeen = Counter()
        let release = Mutex(false)
        let lateSeen = Mutex<[ProviderEvent]>([])
        let work: Coalescer<String, LinkMetadata>.Work = { flight in
            flight.send(.progress(stage: .resolving, bytes: 0))
            flight.send(.progress(stage: .downloading, bytes: 10))
            while !release.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
            return .success(LinkMetadata(originalURL: "u"))
        }
        async let first = coalescer.run(key: "k", waiter: coalescer.makeWaiterID(), events: { _ in firstSeen.bump() }, work: work)
        try await eventually { firstSeen.count == 2 }
        async let late = coalescer.run(
            key: "k", waiter: coalescer.makeWaiterID(), events: { event in lateSeen.withLock { $0.append(event) } },
            work: work)
        try await eventually { !lateSeen.withLock { $0 }.isEmpty }
        release.withLock { $0 = true }
        _ = await (first, late)
        #expect(lateSeen.withLock { $0 } == [.progress(stage: .downloading, bytes: 10)])
    }

    /// A flight nobody watches for progress passes on only changes of
    /// stage; one with a waiter that asks for progress passes on every event.
    @Test(arguments: [false, true])
    func progressNobodyShowsIsCutToTheStages(listening: Bool) async {
        let coalescer = Coalescer<String, LinkMetadata>()
        let seen = Mutex<[ProviderEvent]>([])
        let work: Coalescer<String, LinkMetadata>.Work = { flight in
            flight.send(.progress(stage: .resolving, bytes: 0))
            for bytes in [0, 100, 200] { flight.send(.progress(stage: .downloading, bytes: bytes)) }
            flight.send(.progress(stage: .parsing, bytes: 200))
            return .success(LinkMetadata(originalURL: "u"))
        }
        _ = await coalescer.run(
            key: "k", waiter: coalescer.makeWaiterID(), demand: FlightDemand(progress: listening),
            events: { event in seen.withLock { $0.append(event) } }, work: work)
        let downloading = listening ? [0, 100, 200] : [0]
        #expect(seen.withLock { $0 } == [.progress(stage: .resolving, bytes: 0)]
            + downloading.map { .progress(stage: .downloading, bytes: $0) } + [.progress(stage: .parsing, bytes: 200)])
    }

    @Test
    func taskCancellationEndsTheWaiterPromptly() async throws {
        let coalescer = Coalescer<String, LinkMetadata>()
        let work = GatedWork()
        let task = Task {
            await coalescer.run(key: "k", waiter: coalescer.makeWaiterID(), events: { _ in }) { _ in
                await work.run(title: "t")
            }
        }
        try await eventually { coalescer.waiterCount(for: "k") == 1 }
        task.cancel()
        #expect(await task.value == .failure(.cancelled))
    }
}

/// The one-shot rule, as the daemon and library callers use it.
struct ProviderRegistryTests {
    @Test
    func aProviderStartsOnceWhileRunningAndAfter() {
        var registry = ProviderRegistry<String, Int>(window: 2)
        let first = registry.start("a", for: 1)
        let whileRunning = registry.start("a", for: 2)
        #expect(first)
        #expect(!whileRunning)
        #expect(registry.running["a"] == 1)
        registry.finish("a")
        let afterwards = registry.start("a", for: 3)
        #expect(registry.running["a"] == nil)
        #expect(!afterwards)
    }

    @Test
    func onlyTheWindowOfFinishedIdsIsRemembered() {
        var registry = ProviderRegistry<String, Int>(window: 2)
        for id in ["a", "b", "c"] {
            let started = registry.start(id, for: 0)
            #expect(started)
            registry.finish(id)
        }
        let (a, b, c) = (registry.start("a", for: 0), registry.start("b", for: 0), registry.start("c", for: 0))
        #expect(a, "forgotten: older than the window")
        #expect(!b)
        #expect(!c)
    }
}
