/// The params of a message the daemon reads, typed, with the method they
/// belong to and the rules beyond their types (ranges, choices). The server
/// decodes every request's params through one generic path (`LinkPeekServer`'s
/// `decodeRequest`): a field of the wrong type or missing, then the first
/// broken rule, is answered -32602 with a sentence naming the field.
public protocol RequestParams: Decodable, Sendable {
    /// The JSON-RPC method these params come with.
    static var method: String { get }
    /// The first rule these params break, naming the field; nil when none.
    func validationError() -> String?
}

extension RequestParams {
    public func validationError() -> String? { nil }
}

extension InitializeParams: RequestParams {}
extension ShutdownParams: RequestParams {}
extension FetchParams: RequestParams {}
extension CancelParams: RequestParams {}
extension GetCachedParams: RequestParams {}
extension SaveParams: RequestParams {}
extension UnsaveParams: RequestParams {}
extension SavedParams: RequestParams {}
extension HoverParams: RequestParams {}
extension DocumentLinkParams: RequestParams {}
extension DocumentLinkResolveParams: RequestParams {}
extension RenderParams: RequestParams {}
extension GetMediaParams: RequestParams {}
extension PrefetchParams: RequestParams {}
extension WorkDoneProgressCancelParams: RequestParams {}
extension DidChangeConfigurationParams: RequestParams {}
extension DidOpenTextDocumentParams: RequestParams {}
extension DidChangeTextDocumentParams: RequestParams {}
extension DidCloseTextDocumentParams: RequestParams {}
