import Threading
import Logging

/// Memory after a burst: once the daemon has been idle for a moment after
/// enough work, the request table's storage is dropped and the free heap is
/// given back to the system (`FreeMemory`), so a daemon that an editor keeps
/// for days does not stay at the size of its busiest minute.
extension Server {
    /// How long the daemon must be idle before it gives memory back.
    static let idleTrimDelay = Duration.seconds(2)
    /// Completions that make a trim worth its cost (about a millisecond).
    static let completionsWorthATrim = 256

    /// Counts one answered request, and schedules the idle check if none is pending.
    func noteCompletion() {
        completionsSinceTrim += 1
        guard !trimCheckPending, completionsSinceTrim >= Self.completionsWorthATrim else { return }
        trimCheckPending = true
        scheduleTrimCheck(seenCompletions: completionsSinceTrim)
    }

    private func scheduleTrimCheck(seenCompletions: Int) {
        Task {
            try? await Task.sleep(for: Self.idleTrimDelay)
            await self.trimIfIdle(seenCompletions: seenCompletions)
        }
    }

    /// Trims when nothing ran since the check was scheduled; else looks again later.
    private func trimIfIdle(seenCompletions: Int) {
        guard requests.isEmpty, completionsSinceTrim == seenCompletions else {
            scheduleTrimCheck(seenCompletions: completionsSinceTrim)
            return
        }
        trimCheckPending = false
        completionsSinceTrim = 0
        // A dictionary keeps its largest capacity after removals; a burst of
        // pipelined requests grew it to thousands of slots.
        requests = [:]
        let gaveBack = FreeMemory.giveBack()
        logger.debug("idle after a burst: free memory \(gaveBack ? "given back" : "already returned")")
    }
}
