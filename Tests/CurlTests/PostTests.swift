import Glibc
import LinkPeekTestSupport
import Synchronization
import Threading
import Testing

@testable import Curl

/// Tier 2 (a real libcurl against a loopback server): a request with a body
/// is a POST of exactly those bytes with their `Content-Type`, and follows
/// no redirect, even one (307, 308) that would send the body again.
struct PostTests {
    private func request(_ port: UInt16, body: RequestBody?) -> TransferRequest {
        var request = TransferRequest(
            url: "http://127.0.0.1:\(port)/start", userAgent: "test", timeout: 10,
            policy: AddressPolicy(allowPrivateNetwork: true))
        request.body = body
        return request
    }

    /// Each status, with curl following redirects and with the engine
    /// following them itself (a `HopRule`).
    @Test(arguments: [307, 308, 302], [false, true])
    func aPostSendsItsBodyOnceAndTakesTheRedirectAsItsAnswer(status: Int, hopByHop: Bool) async throws {
        let server = try RedirectingServer(status: status)
        defer { server.stop() }
        let engine = TransferEngine()
        defer { engine.shutdown() }
        // A zero byte in the middle: the size, not a terminator, ends the body.
        let bytes = Array(#"{"query":"x","n":1}"#.utf8) + [0] + Array("tail".utf8)
        var post = request(server.port, body: RequestBody(bytes: bytes, contentType: "application/json"))
        if hopByHop { post.hopRule = HopRule { [post] url in var hop = post; hop.url = url; return hop } }
        let result = try await engine.perform(post, consumer: CountingConsumer())
        #expect(result.head?.status == status && result.redirects.isEmpty)
        let seen = server.requests
        #expect(seen.count == 1)
        let head = String(decoding: seen.first?.head ?? [], as: UTF8.self)
        #expect(head.hasPrefix("POST /start HTTP/1.1\r\n"))
        #expect(head.lowercased().contains("\r\ncontent-type: application/json\r\n"))
        #expect(seen.first?.body == bytes)
    }

    @Test func aGetStillFollowsTheRedirect() async throws {
        let server = try RedirectingServer(status: 307)
        defer { server.stop() }
        let engine = TransferEngine()
        defer { engine.shutdown() }
        let result = try await engine.perform(request(server.port, body: nil), consumer: CountingConsumer())
        #expect(result.head?.status == 200 && result.redirects.count == 1)
        let heads = server.requests.map { String(decoding: $0.head, as: UTF8.self) }
        #expect(heads.count == 2 && heads.allSatisfy { $0.hasPrefix("GET ") })
    }
}

/// A loopback HTTP/1.1 server that answers `/start` with a redirect to
/// `/next` and anything else with `ok`, one request per connection, and
/// keeps each request's head and body. One thread, polling; ended by `stop()`.
final class RedirectingServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let status: Int
    private let state = Mutex((requests: [(head: [UInt8], body: [UInt8])](), stopping: false))

    init(status: Int) throws {
        self.status = status
        (listener, port) = try LoopbackSocket.listen()
        DetachedThread.start(name: "loopback server") { self.serve() }
    }

    var requests: [(head: [UInt8], body: [UInt8])] { state.withLock { $0.requests } }

    func stop() { state.withLock { $0.stopping = true } }

    private func serve() {
        while !state.withLock({ $0.stopping }) {
            var polled = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            guard poll(&polled, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            answer(client)
            close(client)
        }
        close(listener)
    }

    /// Reads one request (its head, then `Content-Length` bytes; at most 2 s
    /// of waiting per read) and answers it.
    private func answer(_ client: Int32) {
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headEnd: Int?
        var wanted = Int.max
        while bytes.count < wanted {
            let count = read(client, &buffer, buffer.count)
            guard count > 0 else { return }
            bytes += buffer[..<count]
            if headEnd == nil, let end = KeepAliveServer.endOfHead(bytes) {
                headEnd = end
                let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingPrefix(" ")) } ?? 0
                wanted = end + length
            }
        }
        guard let headEnd else { return }
        let head = Array(bytes[..<headEnd])
        state.withLock { $0.requests.append((head, Array(bytes[headEnd...]))) }
        let requestLine = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let reply = requestLine.split(separator: " ").dropFirst().first == "/start"
            ? "HTTP/1.1 \(status) Moved\r\nLocation: /next\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            : "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
        _ = Array(reply.utf8).withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    }

}
