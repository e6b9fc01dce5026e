import Hummingbird
import LinkPeek

extension Front {
    /// `/healthz`: the process answers. `/readyz`: it should get traffic —
    /// not while it drains (`SIGTERM`), nor while its fleet's Redis is
    /// configured and does not answer past its reconnection backoff.
    func probe(_ endpoint: Endpoint) async -> Response {
        if endpoint == .healthz { return Reply.json(Array(#"{"status":"ok"}"#.utf8)) }
        if lifecycle.isDraining {
            return Reply.json(Array(#"{"status":"draining"}"#.utf8), status: .serviceUnavailable)
        }
        if let fleet = engine.cache.fleet, !(await Self.ping(fleet)) {
            return Reply.json(Array(#"{"status":"redisUnreachable"}"#.utf8), status: .serviceUnavailable)
        }
        return Reply.json(Array(#"{"status":"ready"}"#.utf8))
    }

    /// A blocking `PING` (at most the fleet's call limit), off the caller's executor.
    @concurrent
    static func ping(_ fleet: FleetCache) async -> Bool {
        fleet.ping()
    }

    /// `/metrics`: Prometheus text.
    func scrape() -> Response {
        let redisUp = engine.cache.fleet.map { $0.isUp }
        let text = metrics.scrape(engine: engine.cache.counters.snapshot, waiting: gate.load.waiting, redisUp: redisUp)
        var headers: HTTPFields = [:]
        headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: text)))
    }
}
