import JSONRPC
import LinkPeek
import LinkPeekProtocol

/// `decodeParams`, then the params' own rules: the one way a request's
/// params become -32602 (the type's message, or the rule's sentence).
func decodeCheckedParams<T: CheckedParams>(_ type: T.Type, from params: JSONValue?) -> Result<T, ResponseError> {
    decodeParams(type, from: params).flatMap { decoded in
        decoded.validationError().map { .failure(.invalidParams($0)) } ?? .success(decoded)
    }
}

extension Server {
    /// Registers the provider a request runs as (`requested`, else the
    /// request id); nil, with the request answered `providerReused`, when
    /// the one-shot rule refuses it.
    func startProvider(_ requested: ProviderID?, for id: RequestID, _ responder: Responder) -> ProviderID? {
        let provider = requested ?? ProviderID(id)
        guard providers.start(provider, for: id) else {
            responder.respond(.error(id, ResponseError(FetchError.providerReused)))
            return nil
        }
        return provider
    }
}
