/// What a running fetch reports before its result.
public enum ProviderEvent: Sendable, Equatable {
    /// The fetch entered `stage`; `bytes` is the page bytes read so far.
    case progress(stage: FetchStage, bytes: Int)
    /// The metadata known so far, sent once, as soon as the head is parsed
    /// (before the icon and image are fetched).
    case partial(LinkMetadata)
}

/// The stages of a fetch, in order (icon and image only with subresources).
/// `getMedia` reports them too, then `transforming` (decode, resize, encode).
/// `waiting` comes from libcurl's own timing (the request sent, the answer
/// not started), so a kept-alive connection, which skips the lookup and
/// the connect, does not stay at `resolving` while the server thinks.
public enum FetchStage: String, Sendable, Codable, CaseIterable {
    case resolving, connecting, waiting, downloading, parsing, icon, image, transforming
}
