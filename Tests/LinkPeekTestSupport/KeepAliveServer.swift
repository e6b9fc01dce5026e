import Glibc
import Synchronization
import Threading

/// A loopback HTTP/1.1 server that keeps connections open and answers every
/// request with the same small page; it counts the connections it accepted.
/// One thread, polling; stopped (and its sockets closed) by `stop()`.
public final class KeepAliveServer: Sendable {
    public let port: UInt16
    private let listener: Int32
    private let state = Mutex((connections: 0, stopping: false))
    public static let body = Array("<html><head><title>kept</title></head></html>".utf8)

    public init() throws {
        (listener, port) = try LoopbackSocket.listen()
        DetachedThread.start(name: "loopback server") { self.serve() }
    }

    public var connections: Int { state.withLock { $0.connections } }

    /// Tells the server thread to end; it closes its sockets within one poll (50 ms).
    /// (No waiting here: a test's task must not block a thread of the shared pool.)
    public func stop() {
        state.withLock { $0.stopping = true }
    }

    private func serve() {
        var clients: [Int32: [UInt8]] = [:]
        while !state.withLock({ $0.stopping }) {
            var polled = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            polled += clients.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&polled, nfds_t(polled.count), 50) > 0 else { continue }
            for entry in polled where entry.revents != 0 {
                if entry.fd == listener {
                    let client = accept(listener, nil, nil)
                    if client >= 0 {
                        clients[client] = []
                        state.withLock { $0.connections += 1 }
                    }
                    continue
                }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(entry.fd, &buffer, buffer.count)
                guard count > 0 else {
                    close(entry.fd)
                    clients[entry.fd] = nil
                    continue
                }
                var pending = (clients[entry.fd] ?? []) + buffer[..<count]
                // One answer per complete request head.
                while let end = Self.endOfHead(pending) {
                    pending.removeFirst(end)
                    let head = Array("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: \(Self.body.count)\r\n\r\n".utf8)
                    let answer = head + Self.body
                    _ = answer.withUnsafeBytes { write(entry.fd, $0.baseAddress, $0.count) }
                }
                clients[entry.fd] = pending
            }
        }
        for client in clients.keys { close(client) }
        close(listener)
    }

    /// The offset just past a request head's blank line, if `bytes` hold one.
    public static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}
