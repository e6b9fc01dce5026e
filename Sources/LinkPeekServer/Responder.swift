import JSONRPC
import Synchronization

/// Where a request's answer goes: straight to the connection, or into the
/// answer array of the batch it came in, which is written once complete.
enum Responder: Sendable {
    case direct(Connection)
    case batch(BatchCollector)

    func respond(_ message: Message) {
        switch self {
        case .direct(let connection): connection.send(message)
        case .batch(let collector): collector.add(message)
        }
    }
}

/// Gathers the answers of one batch; sends them as one array when the last
/// expected answer arrives (answers come in any order, from any thread).
final class BatchCollector: Sendable {
    private let connection: Connection
    private let answers: Mutex<(expected: Int, messages: [Message])>

    init(connection: Connection, expected: Int) {
        self.connection = connection
        self.answers = Mutex((expected, []))
    }

    func add(_ message: Message) {
        let complete = answers.withLock { state -> [Message]? in
            state.messages.append(message)
            return state.messages.count == state.expected ? state.messages : nil
        }
        if let complete { connection.send(.batch(complete)) }
    }
}
