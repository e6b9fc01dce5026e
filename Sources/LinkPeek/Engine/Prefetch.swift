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

    /// Previews of one host (`HostBackoff.key`) at most at once: a document
    /// with 200 links to one site must not burst it (`HostPacing`).
    public static var prefetchPerHost: Int { 2 }

    /// Warms the cache for `urls` at background priority: each preview and,
    /// with `thumbnail`, the thumbnails of its image and icon (a page without
    /// them is no failure). At most `prefetchConcurrency` at once, of which
    /// at most `prefetchPerHost` to one host, each after a short random pause
    /// when its host was asked before (`HostPacing`). Cancelling the calling
    /// task stops it: the URLs not started are skipped. `progress(done,
    /// total)` after each URL.
    public func prefetch(
        urls: [String], thumbnail: ImageTransform?, progress: @escaping @Sendable (Int, Int) -> Void
    ) async -> PrefetchSummary {
        var summary = PrefetchSummary(total: urls.count)
        var failures: [Int: (url: String, error: FetchError)] = [:]
        var pacing = HostPacing(urls: urls, perHost: Self.prefetchPerHost)
        await withTaskGroup(of: (Int, FetchError?).self) { group in
            var running = 0
            func startMore() {
                while running < Self.prefetchConcurrency, !Task.isCancelled, let (index, pause) = pacing.next() {
                    let url = urls[index]
                    running += 1
                    group.addTask(priority: .background) {
                        (index, await self.prefetchOne(url, thumbnail: thumbnail, pause: pause))
                    }
                }
            }
            startMore()
            var done = 0
            while let (index, error) = await group.next() {
                running -= 1
                pacing.finished(index)
                done += 1
                if let error { failures[index] = (urls[index], error) } else { summary.succeeded += 1 }
                progress(done, urls.count)
                startMore()
            }
        }
        summary.failures = failures.keys.sorted().compactMap { failures[$0] }
        return summary
    }

    private func prefetchOne(_ url: String, thumbnail: ImageTransform?, pause: Duration) async -> FetchError? {
        let options = FetchOptions(reportsPartialResults: false)
        // A fresh preview in the cache is warm already and costs the host
        // nothing: no pause, no fetch.
        if case .miss(let request) = await lookUp(url: url, options: options) {
            if pause > .zero {
                do { try await Task.sleep(for: pause) } catch { return .cancelled }
            }
            do {
                _ = try await fetch(request) { _ in }
            } catch {
                return error
            }
        }
        guard var transform = thumbnail else { return nil }
        for kind in [ImageTransform.Kind.image, .icon] {
            transform.kind = kind
            do throws(FetchError) { _ = try await media(url: url, transform: transform, timeout: nil) } catch {
                // The preview is warm without it; a page with no image or icon ends here too.
                logger.debug("no prefetched thumbnail", metadata: [
                    "url": "\(url)", "kind": "\(kind.rawValue)", "error": "\(error.message)",
                ])
            }
        }
        return Task.isCancelled ? .cancelled : nil
    }
}
