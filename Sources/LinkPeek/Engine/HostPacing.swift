/// The order in which `prefetch` starts its URLs so that no host is burst:
/// at most `perHost` of one host's URLs run at once (the next URL whose host
/// has room goes first, so other hosts are not held up behind a busy one),
/// and every URL after a host's first waits a random `jitter` before it
/// starts, so that one site's requests are spread out rather than sent in
/// lockstep. URLs without a readable host each count as a host of their own
/// (they fail at once anyway).
struct HostPacing {
    /// What a URL waits before its request, when its host was asked before.
    static let jitter: ClosedRange<Int> = 50...250  // milliseconds

    private let hosts: [String]
    private let perHost: Int
    private var pending: [Int]
    private var running: [String: Int] = [:]
    private var started: Set<String> = []

    init(urls: [String], perHost: Int) {
        hosts = urls.enumerated().map { HostBackoff.key(for: $0.element) ?? "#\($0.offset)" }
        self.perHost = max(1, perHost)
        pending = Array(urls.indices)
    }

    /// The next URL to start (its index) and how long it should pause
    /// first, or nil when every pending URL's host is at its limit (or none is left).
    mutating func next() -> (index: Int, pause: Duration)? {
        guard let position = pending.firstIndex(where: { running[hosts[$0], default: 0] < perHost }) else {
            return nil
        }
        let index = pending.remove(at: position)
        let host = hosts[index]
        running[host, default: 0] += 1
        let firstOfHost = started.insert(host).inserted
        return (index, firstOfHost ? .zero : .milliseconds(Int.random(in: Self.jitter)))
    }

    /// The URL at `index` finished: its host has room again.
    mutating func finished(_ index: Int) {
        let host = hosts[index]
        running[host] = max(0, running[host, default: 0] - 1)
    }
}
