import JSONRPC
import LinkPeek
import LinkPeekProtocol

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
