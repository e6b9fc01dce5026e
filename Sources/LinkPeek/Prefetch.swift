/// What a `prefetch` did.
public struct PrefetchSummary: Sendable, Equatable {
    public var total: Int
    public var succeeded: Int
    /// The URLs whose preview failed, in input order, with why.
    public var failures: [(url: String, error: FetchError)]

    public init(total: Int, succeeded: Int = 0, failures: [(url: String, error: FetchError)] = []) {
        self.total = total
        self.succeeded = succeeded
        self.failures = failures
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.total == rhs.total && lhs.succeeded == rhs.succeeded
            && lhs.failures.map(\.url) == rhs.failures.map(\.url) && lhs.failures.map(\.error) == rhs.failures.map(\.error)
    }
}

extension MetadataService {
    /// Previews at most this many at once: prefetching must leave room for
    /// the requests a person is waiting for.
    public static var prefetchConcurrency: Int { 4 }

    /// Warms the cache for `urls` at background priority: each preview and,
    /// with `thumbnail`, the thumbnails of its image and icon (a page without
    /// them is no failure). Cancelling the calling task stops it: the URLs
    /// not started are skipped. `progress(done, total)` after each URL.
    public func prefetch(
        urls: [String], thumbnail: ImageTransform?, progress: @escaping @Sendable (Int, Int) -> Void
    ) async -> PrefetchSummary {
        var summary = PrefetchSummary(total: urls.count)
        var failures: [Int: (url: String, error: FetchError)] = [:]
        await withTaskGroup(of: (Int, FetchError?).self) { group in
            var next = 0
            func startNext() {
                guard next < urls.count, !Task.isCancelled else { return }
                let index = next
                let url = urls[index]
                next += 1
                group.addTask(priority: .background) {
                    (index, await self.prefetchOne(url, thumbnail: thumbnail))
                }
            }
            for _ in 0..<Self.prefetchConcurrency { startNext() }
            var done = 0
            while let (index, error) = await group.next() {
                done += 1
                if let error { failures[index] = (urls[index], error) } else { summary.succeeded += 1 }
                progress(done, urls.count)
                startNext()
            }
        }
        summary.failures = failures.keys.sorted().compactMap { failures[$0] }
        return summary
    }

    private func prefetchOne(_ url: String, thumbnail: ImageTransform?) async -> FetchError? {
        do {
            _ = try await fetch(url: url, options: FetchOptions(reportsPartialResults: false)) { _ in }
        } catch {
            return error
        }
        guard var transform = thumbnail else { return nil }
        for kind in [ImageTransform.Kind.image, .icon] {
            transform.kind = kind
            _ = try? await media(url: url, transform: transform, timeout: nil)
        }
        return Task.isCancelled ? .cancelled : nil
    }
}
