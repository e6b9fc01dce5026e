import FoundationEssentials
import Logging
import Synchronization
import Threading

#if canImport(Glibc)
import Glibc
#endif

/// The address check for a hop that goes through a proxy: the connect-time
/// check would see only the proxy, so the target's host is resolved here and
/// every address it resolves to (or the IP literal, or the `--resolve`
/// mapping) must pass the policy before anything is sent to the proxy.
///
/// The proxy resolves the name again when it connects: a DNS answer that
/// changes between the two lookups (rebinding) is not caught here. An
/// egress proxy that applies the same policy closes that window.
enum HopCheck {
    /// Checks `url` on a thread of its own (`getaddrinfo` blocks, and must not
    /// block a curl loop or the cooperative pool), then calls `done` there with
    /// nil (allowed) or the error that ends the transfer.
    static func start(
        url: String, request: TransferRequest, _ done: @escaping @Sendable (CurlError?) -> Void
    ) {
        workers.run { done(check(url: url, request: request)) }
    }

    /// At most four checks at once: a burst of fetches through a proxy
    /// queues here instead of starting a thread each.
    private static let workers = WorkerPool(name: "linkpeek.hop", limit: 4)

    /// The check itself (blocking).
    static func check(url: String, request: TransferRequest) -> CurlError? {
        guard let parsed = URL(string: url), let host = parsed.host, !host.isEmpty else {
            return CurlError(kind: .malformedURL, detail: "no host in \(url)")
        }
        let port = parsed.port ?? (parsed.scheme?.lowercased() == "https" ? 443 : 80)
        let addresses: [IPAddress]
        if let literal = IPAddress(numericHost: host) {
            addresses = [literal]
        } else if let mapped = mapped(host: host, port: port, overrides: request.nameOverrides) {
            addresses = mapped
        } else {
            switch resolve(host) {
            case .success(let resolved): addresses = resolved
            case .failure(let error): return error
            }
        }
        if let refused = addresses.first(where: { !request.policy.permits($0) }) {
            request.logger.info("address refused", metadata: [
                "url": "\(url)", "address": "\(refused)", "via": "proxy",
                "rule": "\(request.policy.refusingRule(for: refused) ?? "")",
            ])
            return CurlError(
                kind: .blockedAddress,
                detail: "refused to send \(host) to the proxy: it resolves to \(refused), a loopback, private or reserved address")
        }
        return nil
    }

    /// The addresses a `--resolve` entry maps host:port to.
    private static func mapped(host: String, port: Int, overrides: [String]) -> [IPAddress]? {
        let prefix = "\(host.lowercased()):\(port):"
        guard let entry = overrides.first(where: { $0.hasPrefix(prefix) }) else { return nil }
        return entry.dropFirst(prefix.count).split(separator: ",").compactMap { IPAddress(numericHost: String($0)) }
    }

    private static func resolve(_ host: String) -> Result<[IPAddress], CurlError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &result)
        guard status == 0, let first = result else {
            return .failure(CurlError(kind: .dns, detail: "could not resolve host: \(host)"))
        }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let current = node {
            if let sockaddr = current.pointee.ai_addr,
                let address = IPAddress(sockaddr: UnsafeRawPointer(sockaddr), length: Int(current.pointee.ai_addrlen))
            {
                addresses.append(address)
            }
            node = current.pointee.ai_next
        }
        return addresses.isEmpty
            ? .failure(CurlError(kind: .dns, detail: "no address for host: \(host)")) : .success(addresses)
    }
}

/// A few threads that run queued jobs in order and end when the queue is
/// empty (an idle daemon keeps none).
final class WorkerPool: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var next = 0
        var workers = 0
    }

    private let state = Mutex(State())
    private let name: String
    private let limit: Int

    init(name: String, limit: Int) {
        self.name = name
        self.limit = limit
    }

    func run(_ job: @escaping @Sendable () -> Void) {
        let startWorker = state.withLock { state in
            state.jobs.append(job)
            guard state.workers < limit else { return false }
            state.workers += 1
            return true
        }
        if startWorker { DetachedThread.start(name: name) { self.work() } }
    }

    private func work() {
        while let job = takeJob() { job() }
    }

    /// The next job, or nil after marking this worker gone (the queue is empty).
    private func takeJob() -> (@Sendable () -> Void)? {
        state.withLock { state in
            guard state.next < state.jobs.count else {
                state.jobs.removeAll()
                state.next = 0
                state.workers -= 1
                return nil
            }
            let job = state.jobs[state.next]
            state.next += 1
            // Taken jobs leave the queue in batches, so a busy pool does not keep them all.
            if state.next >= 64 {
                state.jobs.removeFirst(state.next)
                state.next = 0
            }
            return job
        }
    }
}
