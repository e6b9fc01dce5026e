import Synchronization

/// A cache entry's served JSON, encoded on first use and then kept: shared
/// by the copies of one `CacheEntry`, so that however often it is copied
/// (memory level, hits) the preview is encoded once at most.
final class ServedJSON: Sendable {
    private enum State {
        case pending(LinkMetadata)
        case done([UInt8]?)
    }

    private let state: Mutex<State>

    /// Encodes `metadata` when first asked; nil metadata has no served form.
    init(encoding metadata: LinkMetadata?) {
        state = Mutex(metadata.map(State.pending) ?? .done(nil))
    }

    /// A served form already known (read back from the store).
    init(known bytes: [UInt8]?) {
        state = Mutex(.done(bytes))
    }

    /// The bytes, encoded now if this is the first use.
    var bytes: [UInt8]? {
        state.withLock { state in
            switch state {
            case .done(let bytes):
                return bytes
            case .pending(let metadata):
                let bytes = try? metadata.jsonBytes()
                state = .done(bytes)
                return bytes
            }
        }
    }
}
