#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Connection {
    /// - Important: runs on the reader thread only.
    func readLoop(_ handler: @Sendable (ConnectionEvent) -> Void) {
        var framer = MessageFramer(maxMessageSize: maxMessageSize)
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            queue.waitUntilBelowHardLimit()
            let count = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            let events = framer.feed(chunk[0..<count])
            if let detected = framer.framing {
                framing.withLock { $0 = detected }
            }
            for event in events { handler(.incoming(Self.incoming(event))) }
        }
        for event in framer.finish() { handler(.incoming(Self.incoming(event))) }
        handler(.inputClosed)
    }

    static func incoming(_ event: FramerEvent) -> Incoming {
        switch event {
        case .message(let body): Message.decode(body)
        case .error(let error): .single(.invalid(id: nil, error: error))
        }
    }

    /// - Important: runs on the writer thread only (it and `writeInline` take
    ///   turns through the queue's `writing` flag).
    func writeLoop() {
        defer { writerDone.signal() }
        while let chunks = queue.takeAll() {
            // Coalesce small messages into few system calls; each stays whole.
            var batch: [UInt8] = []
            for chunk in chunks {
                batch.append(contentsOf: chunk)
                if batch.count >= 1 << 20 {
                    guard writeAll(batch) else { return }
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty, !writeAll(batch) { return }
        }
    }

    /// The largest message written inline: a pipe takes up to `PIPE_BUF`
    /// bytes at once when `poll` says it is writable, so such a write does
    /// not block.
    static let inlineLimit = 4096

    /// Writes a small message on the sending thread when nothing is queued or
    /// being written and the output can take it at once; false when it must
    /// go through the queue.
    ///
    /// Why: with one request outstanding, waking the writer thread was one
    /// of the three thread wake-ups per answer, each 30–50 µs on a small VM,
    /// and the largest part of the latency. The writer thread still writes
    /// everything else: a backlog, large messages, and whenever the client is
    /// slow (then `poll` says the output is full and the message is queued),
    /// so a sender never blocks on a slow client.
    func writeInline(_ bytes: [UInt8]) -> Bool {
        guard bytes.count <= Self.inlineLimit, queue.claimInline(bytes.count) else { return false }
        var output = pollfd(fd: self.output, events: Int16(POLLOUT), revents: 0)
        guard poll(&output, 1, 0) == 1, output.revents & Int16(POLLOUT) != 0,
            output.revents & Int16(POLLERR | POLLHUP | POLLNVAL) == 0
        else {
            queue.endInline(unwritten: bytes)
            return true
        }
        _ = writeAll(bytes)
        queue.endInline(unwritten: nil)
        return true
    }

    /// Writes every byte, retrying on `EINTR` and short writes. On any other
    /// error (`EPIPE`: the client is gone) marks the queue broken and returns false.
    private func writeAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return write(output, base + offset, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                queue.markBroken()
                return false
            }
            offset += written
            queue.didWrite(written)
        }
        return true
    }
}
