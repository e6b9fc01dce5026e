import CoreMetrics
import LinkPeek
import Prometheus
import Synchronization

/// `/metrics`: the service's own numbers through swift-metrics (requests by
/// endpoint and status code, latency histograms), and the engine's
/// (`CacheCounters`, Redis) read when scraped, all into one Prometheus
/// registry of this service's own (nothing global).
final class HTTPMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    /// Counters and timers by endpoint and code, made on first use.
    private let requests = Mutex<[CounterKey: CoreMetrics.Counter]>([:])
    private struct CounterKey: Hashable {
        let endpoint: Endpoint
        let code: Int
    }
    private let timers: [Endpoint: CoreMetrics.Timer]
    private let inFlightCount = Atomic<Int>(0)
    /// The engine's totals as last scraped, so that counters move by the difference.
    private let lastSeen = Mutex<CacheCounters.Snapshot?>(nil)
    private let hits: [CacheCounters.Level: CoreMetrics.Counter]
    private let origin: CoreMetrics.Counter, bytes: CoreMetrics.Counter, holds: CoreMetrics.Counter, joins: CoreMetrics.Counter
    private let inFlight: CoreMetrics.Gauge, queue: CoreMetrics.Gauge, redis: CoreMetrics.Gauge
    private let clientLimited: CoreMetrics.Counter, memoryAnswers: CoreMetrics.Counter

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10), .seconds(30),
        ]
        self.factory = factory
        var timers: [Endpoint: CoreMetrics.Timer] = [:]
        for endpoint in Endpoint.allCases {
            timers[endpoint] = CoreMetrics.Timer(
                label: "linkpeek_http_request_duration_seconds", dimensions: [("endpoint", endpoint.name)],
                factory: factory)
        }
        self.timers = timers
        var hits: [CacheCounters.Level: CoreMetrics.Counter] = [:]
        for level in CacheCounters.Level.allCases {
            hits[level] = CoreMetrics.Counter(label: "linkpeek_cache_hits_total", dimensions: [("level", level.name)], factory: factory)
        }
        self.hits = hits
        origin = CoreMetrics.Counter(label: "linkpeek_origin_requests_total", factory: factory)
        bytes = CoreMetrics.Counter(label: "linkpeek_origin_bytes_read_total", factory: factory)
        holds = CoreMetrics.Counter(label: "linkpeek_rate_limit_holds_total", factory: factory)
        joins = CoreMetrics.Counter(label: "linkpeek_joined_fetches_total", factory: factory)
        inFlight = CoreMetrics.Gauge(label: "linkpeek_http_requests_in_flight", factory: factory)
        queue = CoreMetrics.Gauge(label: "linkpeek_http_queue_depth", factory: factory)
        redis = CoreMetrics.Gauge(label: "linkpeek_redis_up", factory: factory)
        clientLimited = CoreMetrics.Counter(label: "linkpeek_http_client_limited_total", factory: factory)
        memoryAnswers = CoreMetrics.Counter(label: "linkpeek_http_memory_answers_total", factory: factory)
    }

    func began() { inFlightCount.add(1, ordering: .relaxed) }

    /// A request refused by the per-client limit.
    func limitedClient() { clientLimited.increment() }

    /// A preview answered from memory in the connection's pipeline (`MemoryAnswers`).
    func answeredFromMemory() { memoryAnswers.increment() }

    /// One request answered: its count by endpoint and code, and its time.
    func ended(_ endpoint: Endpoint, code: Int, nanoseconds: Int64) {
        inFlightCount.subtract(1, ordering: .relaxed)
        counter(endpoint, code: code).increment()
        timers[endpoint]?.recordNanoseconds(nanoseconds)
    }

    private func counter(_ endpoint: Endpoint, code: Int) -> CoreMetrics.Counter {
        let key = CounterKey(endpoint: endpoint, code: code)
        return requests.withLock { requests in
            if let counter = requests[key] { return counter }
            let counter = CoreMetrics.Counter(
                label: "linkpeek_http_requests_total", dimensions: [("endpoint", endpoint.name), ("code", String(code))],
                factory: factory)
            requests[key] = counter
            return counter
        }
    }

    /// The Prometheus text, with the engine's numbers brought up to date first.
    /// `redisUp`: nil without a fleet (the gauge then reads -1).
    func scrape(engine: CacheCounters.Snapshot, waiting: Int, redisUp: Bool?) -> [UInt8] {
        lastSeen.withLock { last in
            for level in CacheCounters.Level.allCases {
                let delta = (engine.hits[level] ?? 0) - (last?.hits[level] ?? 0)
                if delta > 0 { hits[level]?.increment(by: delta) }
            }
            Self.add(engine.originRequests - (last?.originRequests ?? 0), to: origin)
            Self.add(engine.bytesRead - (last?.bytesRead ?? 0), to: bytes)
            Self.add(engine.rateLimitHolds - (last?.rateLimitHolds ?? 0), to: holds)
            Self.add(engine.joinedFetches - (last?.joinedFetches ?? 0), to: joins)
            last = engine
        }
        // This scrape is itself in flight; it is not counted.
        inFlight.record(max(0, inFlightCount.load(ordering: .relaxed) - 1))
        queue.record(waiting)
        redis.record(redisUp.map { $0 ? 1 : 0 } ?? -1)
        return registry.emitToBuffer()
    }

    /// A new engine (`SIGHUP`) counts from zero: the next scrape adds all of its totals.
    func engineChanged() {
        lastSeen.withLock { $0 = nil }
    }

    private static func add(_ delta: Int, to counter: CoreMetrics.Counter) {
        if delta > 0 { counter.increment(by: delta) }
    }
}
