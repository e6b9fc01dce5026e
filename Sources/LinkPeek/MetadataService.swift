/// What the daemon and the CLI need from the engine: fetch one URL (honouring
/// task cancellation), and read the cache without touching the network.
///
/// `LinkPeekEngine` is the real implementation; tests of the layers above
/// use a fake.
public protocol MetadataService: Sendable {
    /// Fetches `url`, reporting progress through `events` (called from any
    /// thread, in order, never after this returns). Cancelling the calling
    /// task ends the fetch promptly with `FetchError.cancelled`. Two calls for
    /// the same URL at once share one transfer.
    func fetch(
        url: String,
        options: FetchOptions,
        events: @escaping @Sendable (ProviderEvent) -> Void
    ) async throws(FetchError) -> LinkMetadata

    /// The cached preview for `url`, or nil; never touches the network.
    func cached(url: String) async -> LinkMetadata?

    /// The same as `cached(url:)`, already encoded as JSON (`LinkMetadata.jsonBytes()`).
    func cachedJSON(url: String) async -> [UInt8]?
}

extension MetadataService {
    /// Encodes `cached(url:)`; an implementation that keeps the bytes does better.
    public func cachedJSON(url: String) async -> [UInt8]? {
        try? await cached(url: url)?.jsonBytes()
    }
}
