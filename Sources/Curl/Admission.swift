internal import CCurl
import Synchronization

/// The one admission all of an engine's loops share: the queue of waiting
/// transfers (in order), the total and per-host counts, and each loop's
/// inbox and load.
///
/// A transfer is counted against the limits from the moment it is handed to
/// a loop until that loop ends it, so the limits hold across loops exactly as
/// they would on one. Every `curl_multi_wakeup` is made while the lock is
/// held and only while the engine is not stopping, so a loop never cleans up
/// its `CURLM*` under a waker.
final class Admission: Sendable {
    struct LoopState {
        /// Commands for this loop: transfers admitted to it, cancellations.
        var commands: [TransferEngine.Command] = []
        /// Transfers admitted to this loop and not yet ended.
        var load = 0
        /// Woken and not yet drained: further wakeups would add nothing.
        var wakePending = false
        /// Transfers admitted to this loop, by host: a host's HTTPS transfers
        /// go to the loop that has one already, so that HTTP/2 can multiplex
        /// them on one connection (each loop has its own connection pool).
        /// Plain http (HTTP/1.1 here) keeps spreading over the loops.
        var hosts: [String: Int] = [:]
    }

    struct State {
        var queued: [Transfer] = []
        var loops: [LoopState]
        var active = 0
        var activePerHost: [String: Int] = [:]
        /// Which loop each admitted transfer went to (for cancellation).
        var owner: [UInt64: Int] = [:]
        var stopping = false
        /// Transfers away for a hop check (`submitHop`), and whether a cancel came meanwhile.
        var away: [UInt64: Bool] = [:]
        var nextID: UInt64 = 1
    }

    /// The queued transfers that expired, and how long until the next one may (ms).
    struct Expiry {
        var expired: [Transfer] = []
        var nextMilliseconds: Int32 = 1000
    }

    let state: Mutex<State>
    let limits: TransferEngine.Limits
    private let multis: [MultiPointer]

    /// The loops' shared DNS cache and TLS sessions (nil if libcurl refused one).
    let share: CurlShare?
    /// The profile of the engine's first request: the one whose requests
    /// may reuse connections (see `ConnectionProfile`).
    private let profile = Mutex<ConnectionProfile?>(nil)

    /// True when `request` may share connections, DNS and TLS sessions: its
    /// profile is the engine's (the first request's).
    func sharesConnections(_ request: TransferRequest) -> Bool {
        let candidate = ConnectionProfile(request)
        return profile.withLock { profile in
            if profile == nil { profile = candidate }
            return profile == candidate
        }
    }

    init(multis: [MultiPointer], limits: TransferEngine.Limits, share: CurlShare?) {
        self.multis = multis
        self.limits = limits
        self.share = share
        state = Mutex(State(loops: Array(repeating: LoopState(), count: multis.count)))
    }

    var loopCount: Int { multis.count }

    func multi(_ loop: Int) -> UnsafeMutableRawPointer { multis[loop].raw }

    func nextID() -> UInt64 {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    /// Queues a transfer and admits what the limits allow; false once stopping.
    func submit(_ transfer: Transfer) -> Bool {
        state.withLock { state in
            if state.stopping { return false }
            state.queued.append(transfer)
            let admitted = admit(&state, preferring: nil)
            // Still waiting: loop 0 keeps the clock for queued deadlines, so it
            // must see this one's.
            if !admitted.contains(transfer.id) { wake(0, &state) }
            return true
        }
    }

    /// Cancels a transfer wherever it is: an admitted one by its loop; a
    /// queued one is taken out of the queue at once and ended by loop 0, so
    /// its consumer too is only ever called on a curl thread.
    func cancel(_ id: UInt64) {
        state.withLock { state in
            if state.stopping { return }
            if let index = state.queued.firstIndex(where: { $0.id == id }) {
                state.loops[0].commands.append(.dropQueued(state.queued.remove(at: index)))
                wake(0, &state)
            } else if let loop = state.owner[id] {
                state.loops[loop].commands.append(.cancel(id))
                wake(loop, &state)
            } else if state.away[id] != nil {
                state.away[id] = true
            }
        }
    }

    /// Sets the stop flag and wakes every loop; false when already stopping.
    func stop() -> Bool {
        state.withLock { state in
            if state.stopping { return false }
            for loop in state.loops.indices { wake(loop, &state) }
            state.stopping = true
            return true
        }
    }

    /// What a loop takes at the top of each turn: its commands, whether the
    /// engine stops (then also every queued transfer, for the first loop to
    /// look), and for loop 0 the queued transfers that expired.
    func take(loop: Int) -> (commands: [TransferEngine.Command], stopping: Bool, expiry: Expiry) {
        state.withLock { state in
            let commands = state.loops[loop].commands
            state.loops[loop].commands.removeAll(keepingCapacity: true)
            state.loops[loop].wakePending = false
            var expiry = Expiry()
            if state.stopping {
                expiry.expired = state.queued
                state.queued.removeAll()
                return (commands, true, expiry)
            }
            if loop == 0, !state.queued.isEmpty {
                let now = ContinuousClock.now
                var soonest = 1000
                state.queued.removeAll { transfer in
                    if transfer.deadline <= now {
                        expiry.expired.append(transfer)
                        return true
                    }
                    soonest = min(soonest, transfer.remainingMilliseconds)
                    return false
                }
                // Safe: `soonest` starts at 1000 and only decreases.
                expiry.nextMilliseconds = Int32(max(1, soonest))
            }
            return (commands, false, expiry)
        }
    }

    /// A loop ended these admitted transfers (or could not start them): frees
    /// their slots and admits queued transfers in their place. True when any
    /// went to `loop` itself, which then has commands to take at once.
    func release(_ ended: [(id: UInt64, hostKey: String)], from loop: Int) -> Bool {
        state.withLock { state in
            for transfer in ended {
                state.owner[transfer.id] = nil
                state.active -= 1
                state.loops[loop].load -= 1
                state.activePerHost[transfer.hostKey, default: 1] -= 1
                if state.activePerHost[transfer.hostKey] == 0 { state.activePerHost[transfer.hostKey] = nil }
                state.loops[loop].hosts[transfer.hostKey, default: 1] -= 1
                if state.loops[loop].hosts[transfer.hostKey] == 0 { state.loops[loop].hosts[transfer.hostKey] = nil }
            }
            if state.stopping { return false }
            return !admit(&state, preferring: loop).isEmpty && !state.loops[loop].commands.isEmpty
        }
    }

    /// Hands queued transfers, in order, to the least-busy loops while the
    /// limits allow (a transfer whose host is at its limit waits without
    /// holding back the ones behind it). Returns the ids admitted.
    private func admit(_ state: inout State, preferring preferred: Int?) -> [UInt64] {
        var admitted: [UInt64] = []
        var index = 0
        while index < state.queued.count, state.active < limits.total {
            let transfer = state.queued[index]
            guard state.activePerHost[transfer.hostKey, default: 0] < limits.perHost else {
                index += 1
                continue
            }
            state.queued.remove(at: index)
            var target = preferred ?? 0
            for loop in state.loops.indices where state.loops[loop].load < state.loops[target].load {
                target = loop
            }
            if transfer.mayMultiplex,
                let sameHost = state.loops.indices.first(where: { state.loops[$0].hosts[transfer.hostKey] != nil })
            {
                target = sameHost
            }
            state.loops[target].hosts[transfer.hostKey, default: 0] += 1
            state.active += 1
            state.activePerHost[transfer.hostKey, default: 0] += 1
            state.loops[target].load += 1
            state.loops[target].commands.append(.add(transfer))
            state.owner[transfer.id] = target
            if target != preferred { wake(target, &state) }
            admitted.append(transfer.id)
        }
        return admitted
    }

    private func wake(_ loop: Int, _ state: inout State) {
        guard !state.loops[loop].wakePending else { return }
        state.loops[loop].wakePending = true
        curl_multi_wakeup(multis[loop].raw)
    }
}
