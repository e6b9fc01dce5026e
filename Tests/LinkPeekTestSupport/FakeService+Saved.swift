import LinkPeek

/// What `FakeService` has no use for: it keeps no saved links, and
/// transforms `data:` URLs only (as every service without a network).
extension FakeService {
    public func save(url: String, tags: [String]?, title: String?) async throws(FetchError) -> LinkMetadata {
        throw .unknown("this service keeps no saved links.")
    }

    public func unsave(url: String) async throws(FetchError) -> Bool { false }

    public func saved(tag: String?, limit: Int, offset: Int) async -> [LinkMetadata] { [] }

    public func media(url: String, transform: ImageTransform, timeout: Double?) async throws(FetchError) -> MediaImage {
        try await dataURLMedia(url: url, transform: transform)
    }
}
