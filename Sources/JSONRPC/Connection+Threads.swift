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

    /// - Important: runs on the writer thread only.
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
