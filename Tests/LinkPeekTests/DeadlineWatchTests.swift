import Synchronization
import Testing

@testable import LinkPeek

/// `DeadlineWatch`: the callers' own deadlines on shared flights, watched by one sleeper.
struct DeadlineWatchTests {
    /// The ids whose actions ran, in order.
    final class Fired: Sendable {
        let ids = Mutex<[UInt64]>([])
        func note(_ id: UInt64) { ids.withLock { $0.append(id) } }
        var all: [UInt64] { ids.withLock { $0 } }
    }

    @Test func anActionRunsOnceItsDeadlinePasses() async throws {
        let watch = DeadlineWatch()
        let fired = Fired()
        let start = ContinuousClock.now
        watch.add(1, deadline: start + .milliseconds(50)) { fired.note(1) }
        try await eventually { fired.all == [1] }
        #expect(ContinuousClock.now - start >= .milliseconds(50))
        #expect(watch.count == 0)
        // Nothing left to watch: no sleeper stays armed.
        #expect(!watch.isArmed)
    }

    @Test func aRemovedActionNeverRuns() async throws {
        let watch = DeadlineWatch()
        let fired = Fired()
        watch.add(1, deadline: .now + .milliseconds(30)) { fired.note(1) }
        watch.add(2, deadline: .now + .milliseconds(60)) { fired.note(2) }
        watch.remove(1)
        try await eventually { fired.all == [2] }
        try await Task.sleep(for: .milliseconds(50))
        #expect(fired.all == [2])
    }

    @Test func anEarlierDeadlineAddedLaterRunsFirst() async throws {
        // The sleeper armed for the first (an hour away) is replaced for the second.
        let watch = DeadlineWatch()
        let fired = Fired()
        watch.add(1, deadline: .now + .seconds(3600)) { fired.note(1) }
        watch.add(2, deadline: .now + .milliseconds(20)) { fired.note(2) }
        try await eventually { fired.all == [2] }
        #expect(watch.count == 1)
        // Re-armed for the one left.
        #expect(watch.isArmed)
        watch.remove(1)
    }

    @Test func laterDeadlinesEachRunInTurn() async throws {
        // Each comes after the armed one: the sleeper, woken, arms itself for the next.
        let watch = DeadlineWatch()
        let fired = Fired()
        let start = ContinuousClock.now
        for id in UInt64(1)...4 {
            watch.add(id, deadline: start + .milliseconds(20 * Int(id))) { fired.note(id) }
        }
        try await eventually { fired.all.count == 4 }
        #expect(fired.all == [1, 2, 3, 4])
    }
}
