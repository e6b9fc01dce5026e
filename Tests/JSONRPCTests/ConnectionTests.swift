import Foundation
import LinkPeekTestSupport
import Synchronization
import Testing

@testable import JSONRPC

/// Tier 1½: the connection over real pipes, with its threads.
@Suite struct ConnectionTests {
    typealias Pipe = TestPipe

    final class Received: Sendable {
        let events = Mutex<[ConnectionEvent]>([])
        func append(_ event: ConnectionEvent) { events.withLock { $0.append(event) } }
        var count: Int { events.withLock { $0.count } }
    }

    func writeAll(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// Polls `condition` every 5 ms for at most `timeout` seconds.
    func waitUntil(timeout: Double = 5, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }

    func readAvailable(_ fd: Int32, atLeast count: Int, timeout: Double = 5) async -> [UInt8] {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        _ = await waitUntil(timeout: timeout) {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { out += chunk[0..<n] }
            return out.count >= count
        }
        return out
    }

    @Test func readsDecodesAndAnswersInTheInputsFraming() async throws {
        let input = try Pipe()
        let output = try Pipe()
        let connection = Connection(input: input.read, output: output.write)
        let received = Received()
        connection.start { received.append($0) }
        writeAll(input.write, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}\n")
        #expect(await waitUntil { received.count == 1 })
        connection.send(.result(1, "ok"))
        let expected = Array(#"{"id":1,"jsonrpc":"2.0","result":"ok"}"#.utf8) + [0x0A]
        #expect(await readAvailable(output.read, atLeast: expected.count) == expected)
        close(input.write)
        #expect(await waitUntil { received.count == 2 })
        #expect(await connection.close(timeout: 5))
        close(input.read)
        close(output.read)
        close(output.write)
    }

    @Test func droppableMessagesGoFirstWhenTheClientDoesNotRead() async throws {
        let input = try Pipe()
        let output = try Pipe()
        let limits = OutputLimits(softLimit: 256 * 1024, hardLimit: 64 * 1024 * 1024)
        let connection = Connection(input: input.read, output: output.write, limits: limits)
        connection.start { _ in }
        let filler = String(repeating: "x", count: 1000)
        var dropped = 0
        for index in 0..<2000 {
            if !connection.send(.notification(method: "$/progress", params: ["n": .int(index), "f": .string(filler)]), priority: .droppable) {
                dropped += 1
            }
            #expect(connection.send(.result(.int(index), "answer")))
        }
        #expect(dropped > 0)
        #expect(connection.droppedCount == dropped)
        // Every response is still delivered once the client reads. No clock in
        // the verdict: nobody reads until every send has returned, so the pipe
        // (64 KiB) and the soft limit (256 KiB) are full long before 2,000
        // droppable 1 KB reports; the bound below only stops a hang.
        var framer = MessageFramer()
        var responses = 0
        _ = fcntl(output.read, F_SETFL, fcntl(output.read, F_GETFL) | O_NONBLOCK)
        var chunk = [UInt8](repeating: 0, count: 65536)
        _ = await waitUntil(timeout: 60) {
            let n = chunk.withUnsafeMutableBytes { read(output.read, $0.baseAddress, $0.count) }
            if n > 0 {
                for case .message(let body) in framer.feed(chunk[0..<n]) where !body.contains(UInt8(ascii: "$")) {
                    responses += 1
                }
            }
            return responses == 2000
        }
        #expect(responses == 2000)
        close(input.write)
        #expect(await connection.close(timeout: 5))
        for fd in [input.read, output.read, output.write] { close(fd) }
    }

    @Test func clientGoneIsQuiet() async throws {
        StandardStreams.ignoreSIGPIPE()
        let input = try Pipe()
        let output = try Pipe()
        close(output.read)
        let connection = Connection(input: input.read, output: output.write)
        connection.start { _ in }
        connection.send(.result(1, "nobody reads this"))
        // The writer hits EPIPE and stops; closing does not hang.
        close(input.write)
        _ = await connection.close(timeout: 5)
        #expect(connection.queue.pendingBytes == 0)
        close(input.read)
        close(output.write)
    }
}

extension ConnectionTests {
    /// The reader's own state, not a pause: `readerWaiting` is set under the
    /// queue's lock before the reader blocks, and only a drain below the hard
    /// limit (or a broken output) clears it and lets it read again.
    @Test func readingPausesPastTheHardLimitAndResumesWhenDrained() async throws {
        let input = try Pipe()
        let output = try Pipe()
        let limits = OutputLimits(softLimit: 16 * 1024, hardLimit: 200 * 1024)
        let connection = Connection(input: input.read, output: output.write, limits: limits)
        let received = Received()
        connection.start { received.append($0) }
        let readerWaiting = { connection.queue.state.withLock { $0.readerWaiting } }
        writeAll(input.write, "{\"jsonrpc\":\"2.0\",\"method\":\"first\"}\n")
        #expect(await waitUntil { received.count == 1 })
        #expect(!readerWaiting())
        // Fill the pipe (64 KiB) and the queue past the hard limit; nobody reads.
        let filler = String(repeating: "x", count: 10_000)
        for index in 0..<40 { connection.send(.result(.int(index), .string(filler))) }
        // The reader checks the limit before each read: whether it was already
        // in read() (then "second" gets through first) or not, it now pauses.
        writeAll(input.write, "{\"jsonrpc\":\"2.0\",\"method\":\"second\"}\n")
        #expect(await waitUntil(timeout: 60, readerWaiting), "the reader did not pause past the hard limit")
        let beforeThird = received.count
        writeAll(input.write, "{\"jsonrpc\":\"2.0\",\"method\":\"third\"}\n")
        #expect(readerWaiting())
        #expect(received.count == beforeThird)
        // Drain the output: reading resumes.
        let all = await readAvailable(output.read, atLeast: 40 * 10_000, timeout: 60)
        #expect(all.count >= 40 * 10_000)
        #expect(await waitUntil(timeout: 60) { received.count == 3 })
        #expect(!readerWaiting())
        close(input.write)
        #expect(await connection.close(timeout: 5))
        for fd in [input.read, output.read, output.write] { close(fd) }
    }
}
