import Foundation
import LinkPeekServer
import LinkPeekTestSupport
import Logging
import Testing

/// SIGTERM ends a session like end of input. In-process, so it runs alone:
/// the signal goes to the whole test process (whose default action is
/// replaced by the session's signal source).
@Suite(.serialized) struct SignalTests {
    @Test func sigtermCancelsFlushesAndExitsZero() async throws {
        let (inputPipe, outputPipe) = (try TestPipe(), try TestPipe())
        let (input, toServer, fromServer, output) = (inputPipe.read, inputPipe.write, outputPipe.read, outputPipe.write)
        let service = FakeService()
        let session = Task.detached {
            await Server.serve(service: service, input: input, output: output, logger: quietLogger, handleSignals: true)
        }
        let request = Array(#"{"jsonrpc":"2.0","id":1,"method":"fetch","params":{"url":"https://slow/"}}"#.utf8) + [0x0A]
        _ = request.withUnsafeBytes { write(toServer, $0.baseAddress, $0.count) }
        // The signal comes once the fetch runs (so it is cancelled and answered), within 10 s.
        for _ in 0..<1000 where service.fetchCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(service.fetchCount == 1)
        kill(getpid(), SIGTERM)
        let code = try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask { await session.value }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        #expect(code == 0)
        // The service was shut down (its transfers' threads ended) and what
        // it held back written before the session ended.
        #expect(service.shutdownCount == 1)
        #expect(service.flushCount == 1)
        // The running fetch was answered before the session ended.
        _ = fcntl(fromServer, F_SETFL, fcntl(fromServer, F_GETFL) | O_NONBLOCK)
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { read(fromServer, $0.baseAddress, $0.count) }
        let text = count > 0 ? String(decoding: chunk[0..<count], as: UTF8.self) : ""
        #expect(text.contains("-32800"))
        for fd in [toServer, fromServer, output] { close(fd) }
    }
}
