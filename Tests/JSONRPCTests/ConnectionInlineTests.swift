import Foundation
import LinkPeekTestSupport
import Synchronization
import Testing

@testable import JSONRPC

/// Tier 1½: small messages written on the sending thread (when nothing is
/// queued and the pipe has room) and messages through the writer thread
/// interleave without loss, duplication or reordering per sender.
@Suite struct ConnectionInlineTests {
    /// Every NDJSON line read from `fd` until `count` lines or `timeout` seconds (a hang bound, generous for a loaded machine).
    func readLines(_ fd: Int32, count: Int, timeout: Double = 60) -> [String] {
        var bytes: [UInt8] = []
        var lines = 0
        var chunk = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(timeout)
        while lines < count, Date() < deadline {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) == 1 else { continue }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            lines += chunk[0..<n].count(where: { $0 == 0x0A })
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    func connection() throws -> (Connection, input: Int32, output: Int32) {
        let (input, output) = (try TestPipe(), try TestPipe())
        let connection = Connection(input: input.read, output: output.write)
        connection.start { _ in }
        // Switch the output to NDJSON, so that each message is one line (`{}` itself is not answered here).
        _ = Array("{}\n".utf8).withUnsafeBytes { write(input.write, $0.baseAddress, $0.count) }
        // A state, not a pause: the reader has seen the first line and switched the output to NDJSON.
        let deadline = ContinuousClock.now + .seconds(30)
        while connection.framing.withLock({ $0 }) != .ndjson {
            guard ContinuousClock.now < deadline else { throw TimeoutError(description: "the framing was never detected") }
            usleep(1000)
        }
        return (connection, input.write, output.read)
    }

    @Test func concurrentSendersLoseNothingAndKeepTheirOrder() async throws {
        let (connection, _, output) = try connection()
        let senders = 4
        let perSender = 2000
        // Large messages go through the writer thread, small ones may go inline.
        let big = String(repeating: "x", count: 6000)
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for index in 0..<perSender {
                        let text: JSONValue = index % 7 == 0 ? .string(big) : .string("s")
                        connection.send(.notification(method: "m", params: ["sender": .int(sender), "index": .int(index), "text": text]))
                    }
                }
            }
            // Read while they send, so that the pipe fills and drains.
            let lines = readLines(output, count: senders * perSender)
            #expect(lines.count == senders * perSender)
            var next = [Int](repeating: 0, count: senders)
            for line in lines {
                guard case .single(.message(.notification(_, let params?))) = Message.decode(Array(line.utf8)),
                    case .int(let sender)? = params["sender"], case .int(let index)? = params["index"]
                else {
                    Issue.record("not a whole message: \(line.prefix(80))")
                    continue
                }
                #expect(index == next[sender], "sender \(sender) out of order")
                next[sender] = index + 1
            }
        }
        #expect(await connection.close(timeout: 5))
    }

    @Test func aClientThatDoesNotReadNeverBlocksTheSender() async throws {
        let (connection, _, output) = try connection()
        // Far more than a pipe holds; every send must return at once.
        let started = ContinuousClock.now
        for index in 0..<5000 {
            connection.send(.notification(method: "m", params: ["index": .int(index), "pad": .string(String(repeating: "p", count: 200))]))
        }
        // Nothing reads the output until after the loop: a send that waited for the reader would never
        // return. The bound is a hang bound only.
        #expect(ContinuousClock.now - started < .seconds(30))
        let lines = readLines(output, count: 5000)
        #expect(lines.count == 5000)
        #expect(await connection.close(timeout: 5))
    }
}
