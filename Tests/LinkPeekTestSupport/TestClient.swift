import Foundation
import JSONRPC
import LinkPeek
import LinkPeekServer
import Logging
import Synchronization

public struct TimeoutError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
}

/// The server wrote something that is not a valid frame holding JSON: a
/// server bug, whichever test saw it.
public struct UnparsableOutputError: Error, CustomStringConvertible {
    public var problems: [String]
    public var description: String { "the server wrote output the client cannot parse: \(problems.joined(separator: "; "))" }
}

/// Tier 2 client: runs `Server.serve` in-process over a pipe pair, like
/// sourcekit-lsp's `TestSourceKitLSPClient`. Every wait has a timeout.
public final class TestClient: Sendable {
    let toServer: (read: Int32, write: Int32)
    let fromServer: (read: Int32, write: Int32)
    public let framing: Framing
    let session: Task<Int32, Never>
    /// Everything read so far, in order; each element a message or a batch answer.
    let inbox = Mutex<[JSONValue]>([])
    /// Frames that were not JSON, framing errors and a cut-off last frame:
    /// never dropped, they fail the next wait and the session's end.
    let unparsable = Mutex<[String]>([])
    let readerStarted = Mutex(false)

    /// `clientLog`: the server's own logger forwards to it (else it is quiet).
    public convenience init(
        service: any MetadataService = FakeService(), framing: Framing = .ndjson, startReading: Bool = true,
        clientLog: ClientLog? = nil
    ) throws {
        try self.init(framing: framing, startReading: startReading) { input, output in
            let logger = clientLog.map { log in Logger(label: "linkpeek.server") { log.handler(label: $0) } } ?? quietLogger
            return await Server.serve(
                service: service, input: input, output: output, logger: logger, clientLog: clientLog, handleSignals: false)
        }
    }

    /// A session whose settings come from `configuration` and the client,
    /// each engine made by `makeService` (given the one it replaces).
    public convenience init(
        configuration: ConfigurationLoad, framing: Framing = .ndjson,
        makeService: @escaping @Sendable (Settings, (any MetadataService)?) -> any MetadataService
    ) throws {
        try self.init(framing: framing, startReading: true) { input, output in
            await Server.serve(
                configuration: configuration, makeService: makeService, input: input, output: output,
                logger: quietLogger, handleSignals: false)
        }
    }

    private init(
        framing: Framing, startReading: Bool, serve: @escaping @Sendable (_ input: Int32, _ output: Int32) async -> Int32
    ) throws {
        let (toServerPipe, fromServerPipe) = (try TestPipe(), try TestPipe())
        toServer = (toServerPipe.read, toServerPipe.write)
        fromServer = (fromServerPipe.read, fromServerPipe.write)
        self.framing = framing
        let (input, output) = (toServer.read, fromServer.write)
        session = Task.detached { await serve(input, output) }
        if startReading { self.startReading() }
    }

    /// Starts the thread that reads the server's output (tests of slow
    /// clients start it late).
    public func startReading() {
        let first = readerStarted.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let thread = Thread { [self] in
            var framer = MessageFramer()
            var chunk = [UInt8](repeating: 0, count: 65536)
            func take(_ events: [FramerEvent]) {
                for event in events {
                    switch event {
                    case .message(let body):
                        do {
                            let value = try JSONDecoder().decode(JSONValue.self, from: Data(body))
                            inbox.withLock { $0.append(value) }
                        } catch {
                            let text = String(decoding: body.prefix(200), as: UTF8.self)
                            unparsable.withLock { $0.append("not JSON (\(error)): \(text)") }
                        }
                    case .error(let error):
                        unparsable.withLock { $0.append("bad frame: \(error.message)") }
                    }
                }
            }
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fromServer.read, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                take(framer.feed(chunk[0..<count]))
            }
            take(framer.finish())
            close(fromServer.read)
        }
        thread.start()
    }

    public func sendRaw(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(toServer.write, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }

    public func send(_ payload: Payload) {
        sendRaw(framing.frame(payload.encoded()))
    }

    public func send(_ message: Message) { send(.single(message)) }

    public func notify(_ method: String, _ params: JSONValue? = nil) {
        send(.notification(method: method, params: params))
    }

    /// Removes and returns the first message read that matches, waiting up to `timeout` seconds.
    public func next(timeout: Double = 30, where matches: @escaping (JSONValue) -> Bool = { _ in true }) async throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            try checkOutput()
            let found = inbox.withLock { inbox -> JSONValue? in
                guard let index = inbox.firstIndex(where: matches) else { return nil }
                return inbox.remove(at: index)
            }
            if let found { return found }
            guard Date() < deadline else { throw TimeoutError(description: "no matching message within \(timeout) s") }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// The response to request `id`.
    public func response(_ id: RequestID, timeout: Double = 30) async throws -> JSONValue {
        try await next(timeout: timeout) { $0["id"] == id.jsonValue && $0["method"] == nil }
    }

    /// Sends a request and waits for its response.
    public func request(_ id: RequestID, _ method: String, _ params: JSONValue? = nil, timeout: Double = 30) async throws -> JSONValue {
        send(.request(id: id, method: method, params: params))
        return try await response(id, timeout: timeout)
    }

    /// Every message the server wrote before its answer to a sentinel
    /// request sent now (a method no server knows, answered at once with
    /// -32601), in order, after whatever was already read. Output is
    /// ordered, so a message sent late (after a response it should precede,
    /// or after the last one) shows up here: an order check, not a sleep.
    public func messagesBeforeSentinel(_ id: RequestID = "sentinel", timeout: Double = 30) async throws -> [JSONValue] {
        send(.request(id: id, method: "linkpeek/testSentinel", params: nil))
        var before: [JSONValue] = []
        while true {
            let message = try await next(timeout: timeout)
            if message["id"] == id.jsonValue, message["method"] == nil { return before }
            before.append(message)
        }
    }

    /// Throws when the server wrote anything that was not a valid frame of JSON.
    public func checkOutput() throws {
        let problems = unparsable.withLock { $0 }
        if !problems.isEmpty { throw UnparsableOutputError(problems: problems) }
    }

    /// Everything read and not yet taken.
    public func drain() -> [JSONValue] {
        inbox.withLock { inbox in
            defer { inbox.removeAll() }
            return inbox
        }
    }

    /// Closes the server's input and waits for the session's exit code.
    public func closeInput(timeout: Double = 30) async throws -> Int32 {
        close(toServer.write)
        return try await exitCode(timeout: timeout)
    }

    /// The session's exit code, within `timeout` seconds.
    public func exitCode(timeout: Double = 30) async throws -> Int32 {
        let session = self.session
        let code = try await withThrowingTaskGroup(of: Int32?.self) { group in
            group.addTask { await session.value }
            group.addTask {
                try await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        guard let code else { throw TimeoutError(description: "the session did not end within \(timeout) s") }
        // The session is over: let the reader thread see EOF.
        close(fromServer.write)
        try checkOutput()
        return code
    }

    /// The LSP ending: `shutdown`, `exit`, and the exit code.
    public func shutdownAndExit() async throws -> Int32 {
        _ = try await request("shutdown-request", "shutdown")
        notify("exit")
        let code = try await exitCode()
        close(toServer.write)
        return code
    }
}

extension JSONValue {
    public var errorCode: Int? {
        if case .int(let code)? = self["error"]?["code"] { return code }
        return nil
    }

    public var errorMessage: String? {
        if case .string(let message)? = self["error"]?["message"] { return message }
        return nil
    }
}
