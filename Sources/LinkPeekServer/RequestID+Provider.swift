import JSONRPC
import LinkPeekProtocol

extension IntegerOrString {
    /// The provider id a request id stands for by default. An id kept as
    /// number text (`1e2`) stands for the string of that text.
    init(_ id: RequestID) {
        switch id {
        case .int(let value): self = .integer(value)
        case .string(let value), .number(let value): self = .string(value)
        }
    }
}

extension RequestID {
    init(_ value: IntegerOrString) {
        switch value {
        case .integer(let value): self = .int(value)
        case .string(let value): self = .string(value)
        }
    }
}
