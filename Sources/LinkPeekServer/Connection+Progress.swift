import JSONRPC
import LinkPeekProtocol

extension Connection {
    /// The one `$/progress` sender: `value` (a `WorkDoneProgress`, or a
    /// partial result) on `token`. A value that cannot be encoded is not sent.
    func sendProgress<Value: Codable & Sendable>(_ token: ProgressToken, _ value: Value, priority: SendPriority) {
        guard let params = try? RawJSON(encoding: ProgressParams(token: token, value: value)) else { return }
        send(.notification(method: ProgressParams<Value>.method, params: .raw(params)), priority: priority)
    }
}
