import Foundation
import JSONRPC
import LinkPeekServer
import LinkPeekTestSupport
import Logging
import Testing

/// `window/logMessage`: the daemon's warnings and errors reach its client
/// (LSP `MessageType` 1 error, 2 warning); nothing less severe does, and
/// nothing is sent once the session has detached the connection.
struct ClientLogTests {
    @Test func aWarningReachesTheClientAsWindowLogMessage() async throws {
        let clientLog = ClientLog()
        let client = try TestClient(clientLog: clientLog)
        // Bad params for a notification: the daemon logs a warning and keeps serving.
        client.notify("textDocument/didOpen", .object(["textDocument": .object(["uri": .string("file:///a.md")])]))
        let message = try await client.next(timeout: 10) { $0["method"] == .string("window/logMessage") }
        #expect(message["params"]?["type"] == .int(2))
        guard case .string(let text)? = message["params"]?["message"] else {
            Issue.record("no message text in \(message)")
            return
        }
        #expect(text.hasPrefix("linkpeek.server: ignored a notification with bad params: textDocument.text"))
        #expect(try await client.shutdownAndExit() == 0)
    }

    @Test func levelsMapToLSPMessageTypesAndInfoStaysHome() async throws {
        let clientLog = ClientLog()
        let client = try TestClient(clientLog: clientLog)
        _ = try await client.request(1, "initialize", .object([:]))
        var logger = Logger(label: "test") { clientLog.handler(label: $0) }
        logger.logLevel = .trace
        logger.info("not for the client")
        logger.error("an error", metadata: ["why": "because"])
        logger.warning("a warning")
        let error = try await client.next(timeout: 10) { $0["method"] == .string("window/logMessage") }
        #expect(error["params"]?["type"] == .int(1))
        #expect(error["params"]?["message"] == .string("test: an error why=because"))
        let warning = try await client.next(timeout: 10) { $0["method"] == .string("window/logMessage") }
        #expect(warning["params"]?["type"] == .int(2))
        #expect(warning["params"]?["message"] == .string("test: a warning"))
        #expect(try await client.shutdownAndExit() == 0)
        // Nothing else was sent: the info record stayed off the protocol stream.
        #expect(!client.drain().contains { $0["method"] == .string("window/logMessage") })
    }

    @Test func errorLevelSendsOnlyErrors() {
        #expect(ClientLog(level: .error).level == .error)
        #expect(ClientLog(level: .debug).level == .warning)
    }
}
