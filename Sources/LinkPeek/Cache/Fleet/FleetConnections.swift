import FoundationEssentials
import Redis
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A few connections to the fleet's Redis, each call limited to
/// `callLimit` (50 ms), and the health of the link: Redis down, slow,
/// restarted or refusing is a local event, never a failed request. A call
/// that fails closes its connection and marks Redis down; while it is down
/// every call answers nil at once (the caller goes on with its local levels)
/// and one reconnection is tried after a backoff that doubles from 0.25 s to
/// at most 10 s. Going down and coming back are each said in one line.
///
/// A call slower than the limit counts as down for that call only (its
/// connection is closed: the late reply would answer the next call), so a
/// busy machine's odd stall does not take the fleet away; `slowInARow`
/// such calls in a row do mark Redis down (a Redis that hangs would
/// otherwise cost every request a 50 ms wait per call).
final class FleetConnections: Sendable {
    let endpoint: RedisEndpoint
    private let slots: [Slot]
    private let health = Mutex(Health())
    private let next = Atomic<Int>(0)
    private let report: @Sendable (String) -> Void

    /// The longest a call may take before Redis counts as down for it.
    static let callLimit = 0.05
    static let slowInARow = 3
    static let firstBackoff = 0.25
    static let longestBackoff = 10.0

    /// One connection and the lock that gives it to one caller at a time.
    /// Unchecked: `connection` is read and written only with `lock` held.
    private final class Slot: @unchecked Sendable {
        let lock = Mutex<Void>(())
        var connection: RedisConnection?
    }

    private struct Health {
        var down = false
        var retryAt = ContinuousClock.now
        var backoff = FleetConnections.firstBackoff
        /// A reconnection is being tried; others do not pile on.
        var connecting = false
        /// Calls that timed out since the last one that did not.
        var slow = 0
    }

    init(endpoint: RedisEndpoint, connections: Int = 4, report: @escaping @Sendable (String) -> Void) {
        self.endpoint = endpoint
        slots = (0..<max(1, connections)).map { _ in Slot() }
        self.report = report
    }

    /// Whether Redis was usable at the last call.
    var isUp: Bool { !health.withLock { $0.down } }

    /// Runs `body` on a connection, or answers nil when Redis is down (or
    /// goes down during the call, which then closes that connection).
    /// A reply `-ERR` is the body's to judge; it does not mark Redis down.
    func with<T: Sendable>(_ body: (RedisConnection) throws(RedisError) -> T) -> T? {
        let start = next.wrappingAdd(1, ordering: .relaxed).oldValue
        // A free connection if there is one, else wait for this call's own slot.
        for offset in 0..<slots.count {
            let slot = slots[(start &+ offset) % slots.count]
            if let answer = slot.lock.withLockIfAvailable({ _ in call(on: slot, body) }) { return answer }
        }
        let slot = slots[start % slots.count]
        return slot.lock.withLock { _ in call(on: slot, body) }
    }

    /// - Important: called with `slot.lock` held.
    private func call<T: Sendable>(on slot: Slot, _ body: (RedisConnection) throws(RedisError) -> T) -> T? {
        if slot.connection?.isOpen != true {
            slot.connection = nil
            guard let made = connect() else { return nil }
            slot.connection = made
        }
        guard let open = slot.connection else { return nil }
        do {
            let answer = try body(open)
            health.withLock { $0.slow = 0 }
            return answer
        } catch {
            open.close()
            slot.connection = nil
            let tolerated = error.kind == .timedOut && health.withLock { health -> Bool in
                health.slow += 1
                return health.slow < Self.slowInARow
            }
            if !tolerated { markDown(error) }
            return nil
        }
    }

    /// A new connection when Redis is up or its backoff has passed; nil otherwise.
    private func connect() -> RedisConnection? {
        let now = ContinuousClock.now
        let attempt = health.withLock { health -> Bool in
            guard health.down else { return true }
            guard now >= health.retryAt, !health.connecting else { return false }
            health.connecting = true
            return true
        }
        guard attempt else { return nil }
        do {
            let made = try RedisConnection(endpoint: endpoint, timeout: Self.callLimit)
            let recovered = health.withLock { health -> Bool in
                defer { health = Health() }
                return health.down
            }
            if recovered { report("Redis at \(endpoint) is back; the fleet cache is in use again.") }
            return made
        } catch {
            health.withLock { $0.connecting = false }
            markDown(error)
            return nil
        }
    }

    /// Notes a failure: the first one of an outage is said; the next try waits for the backoff.
    func markDown(_ error: RedisError) {
        let (first, wait) = health.withLock { health -> (Bool, Double) in
            let first = !health.down
            if first {
                health.down = true
                health.backoff = Self.firstBackoff
            } else {
                health.backoff = min(health.backoff * 2, Self.longestBackoff)
            }
            health.connecting = false
            health.retryAt = ContinuousClock.now + .milliseconds(Int(health.backoff * 1000))
            return (first, health.backoff)
        }
        if first {
            report("Redis at \(endpoint) is unavailable (\(error.message)); going on with the local cache levels and retrying every \(wait)–\(Self.longestBackoff) s.")
        }
    }
}
