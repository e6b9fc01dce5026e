import FoundationEssentials
import Redis
import Synchronization
import Threading

#if canImport(Glibc)
import Glibc
#endif

/// Requests waiting for another daemon's fetch of a key, woken by a message
/// on the `done` channel. One thread per process reads the channel on its
/// own connection (started by the first wait); while it is not subscribed
/// (Redis down, restarting) waits fall back to their own short timeouts,
/// after which the engine looks again.
///
/// A wait never misses a message sent between the caller's look at Redis
/// and its wait: the caller takes `generation` before looking, and a wait
/// whose generation is already past returns at once.
final class FleetWaiters: Sendable {
    private let endpoint: RedisEndpoint
    private let report: @Sendable (String) -> Void
    private let table = Mutex(Table())
    private let started = Atomic<Bool>(false)
    /// Counts messages (and reconnections); any change means "look again".
    private let counter = Atomic<UInt64>(0)
    private let subscribed = Atomic<Bool>(false)

    private struct Table {
        var next: UInt64 = 0
        var waiting: [String: [UInt64: CheckedContinuation<Void, Never>]] = [:]
    }

    init(endpoint: RedisEndpoint, report: @escaping @Sendable (String) -> Void) {
        self.endpoint = endpoint
        self.report = report
    }

    /// Taken before looking at Redis; passed to `wait`.
    var generation: UInt64 { counter.load(ordering: .acquiring) }

    /// Whether the channel reader is subscribed now (else a wait is only a short sleep).
    var isListening: Bool { subscribed.load(ordering: .acquiring) }

    /// Waits until `key` is announced done, anything was announced since
    /// `generation`, `seconds` pass, or the task is cancelled.
    func wait(for key: String, since generation: UInt64, seconds: Double) async {
        startListening()
        let id = table.withLock { table -> UInt64 in
            table.next += 1
            return table.next
        }
        let limit = max(0.001, min(seconds, 3600))
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int(limit * 1000)))
            self?.resume(key: key, id: id)
        }
        defer { timer.cancel() }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                table.withLock { $0.waiting[key, default: [:]][id] = continuation }
                if self.generation != generation || Task.isCancelled { resume(key: key, id: id) }
            }
        } onCancel: {
            self.resume(key: key, id: id)
        }
    }

    private func resume(key: String, id: UInt64) {
        let continuation = table.withLock { table -> CheckedContinuation<Void, Never>? in
            let found = table.waiting[key]?.removeValue(forKey: id)
            if table.waiting[key]?.isEmpty == true { table.waiting[key] = nil }
            return found
        }
        continuation?.resume()
    }

    /// Wakes every waiter of `key` (a message), or of every key (`nil`: the link changed).
    private func announce(_ key: String?) {
        counter.wrappingAdd(1, ordering: .releasing)
        let woken = table.withLock { table -> [CheckedContinuation<Void, Never>] in
            guard let key else {
                defer { table.waiting.removeAll() }
                return table.waiting.values.flatMap(\.values)
            }
            return table.waiting.removeValue(forKey: key).map { Array($0.values) } ?? []
        }
        for continuation in woken { continuation.resume() }
    }

    private func startListening() {
        guard started.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return
        }
        DetachedThread.start(name: "linkpeek-fleet") { [self] in listen() }
    }

    /// The reader thread: subscribe, pass each message on; on any failure,
    /// wake everyone (they look again) and resubscribe after a backoff
    /// (at most `FleetConnections.longestBackoff`).
    private func listen() {
        var backoff = FleetConnections.firstBackoff
        while true {
            do {
                let connection = try RedisConnection(endpoint: endpoint, timeout: 1)
                let reply = try connection.call([Array("SUBSCRIBE".utf8), Array(FleetCache.channel.utf8)])
                guard case .array(let parts) = reply, parts.first?.bytes == Array("subscribe".utf8) else {
                    throw RedisError(.protocolError, "SUBSCRIBE was refused")
                }
                // Messages come when they come: no time limit on reading them (keepalive finds a dead peer).
                connection.setTimeout(nil)
                subscribed.store(true, ordering: .releasing)
                backoff = FleetConnections.firstBackoff
                announce(nil)
                while true {
                    let message = try connection.nextReply()
                    guard case .array(let parts) = message, parts.count == 3, parts[0].bytes == Array("message".utf8),
                        let payload = parts[2].bytes, let key = String(validating: payload, as: UTF8.self)
                    else { continue }
                    announce(key)
                }
            } catch {
                subscribed.store(false, ordering: .releasing)
                announce(nil)
            }
            usleep(UInt32(backoff * 1_000_000))
            backoff = min(backoff * 2, FleetConnections.longestBackoff)
        }
    }
}
