import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A daemon's cache use since it started, reported to the store for
/// `linkpeek cache stats` (`Settings.reportsUsage`).
final class UsageCounter: Sendable {
    private struct State {
        var hits = 0
        var misses = 0
        var lastReport: ContinuousClock.Instant?
        var flushPending = false
    }

    private let state = Mutex(State())
    let startedAt = Date().timeIntervalSince1970
    /// Reports are written at most this often.
    static let interval = Duration.seconds(2)

    /// Counts one request; returns a report when one is due now, and
    /// whether a later flush should be scheduled.
    func count(hit: Bool) -> (report: DaemonUsage?, scheduleFlush: Bool) {
        state.withLock { state in
            if hit { state.hits += 1 } else { state.misses += 1 }
            let now = ContinuousClock.now
            if let last = state.lastReport, now - last < Self.interval {
                defer { state.flushPending = true }
                return (nil, !state.flushPending)
            }
            state.lastReport = now
            return (snapshot(state), false)
        }
    }

    /// The report a scheduled flush writes.
    func flush() -> DaemonUsage {
        state.withLock { state in
            state.flushPending = false
            state.lastReport = ContinuousClock.now
            return snapshot(state)
        }
    }

    private func snapshot(_ state: State) -> DaemonUsage {
        DaemonUsage(
            pid: Int(getpid()), startedAt: startedAt, hits: state.hits, misses: state.misses,
            updatedAt: Date().timeIntervalSince1970)
    }
}

extension LinkPeekEngine {
    /// Counts a request answered from the cache (`hit`) or not, and writes
    /// the daemon's totals to the store now and then.
    func countUsage(hit: Bool) {
        guard settings.reportsUsage else { return }
        let (report, scheduleFlush) = usage.count(hit: hit)
        if let report {
            Task { await cache.store.report(report) }
        } else if scheduleFlush {
            Task {
                try? await Task.sleep(for: UsageCounter.interval)
                await cache.store.report(usage.flush())
            }
        }
    }
}
