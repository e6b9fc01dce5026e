import Synchronization

/// One fetch, the way LinkPresentation's `LPMetadataProvider` does it: it can
/// be started once ("provider is one-shot and has already started" after
/// that), cancelled, and it ends with metadata or a `FetchError`.
public final class MetadataProvider: Sendable {
    private enum Phase {
        case ready, running(Task<LinkMetadata, any Error>), finished
    }

    public let service: any MetadataService
    private let phase = Mutex(Phase.ready)
    private let cancelledEarly = Mutex(false)

    public init(service: any MetadataService) {
        self.service = service
    }

    /// Fetches `url`. A second call fails with `providerReused`; `cancel()`
    /// or cancelling the calling task ends it with `cancelled`.
    public func start(
        url: String, options: FetchOptions = FetchOptions(),
        events: @escaping @Sendable (ProviderEvent) -> Void = { _ in }
    ) async throws(FetchError) -> LinkMetadata {
        let service = self.service
        let task: Task<LinkMetadata, any Error>? = phase.withLock { phase in
            guard case .ready = phase else { return nil }
            let task = Task { () async throws -> LinkMetadata in
                try await service.fetch(url: url, options: options, events: events)
            }
            phase = .running(task)
            return task
        }
        guard let task else { throw .providerReused }
        if cancelledEarly.withLock({ $0 }) { task.cancel() }
        defer { phase.withLock { $0 = .finished } }
        do {
            return try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
        } catch let error as FetchError {
            throw error
        } catch {
            throw .unknown(String(describing: error))
        }
    }

    /// Cancels the fetch (before or while it runs).
    public func cancel() {
        cancelledEarly.withLock { $0 = true }
        phase.withLock { phase in
            if case .running(let task) = phase { task.cancel() }
        }
    }
}
