import Hummingbird
import NIOCore
import Synchronization

/// What a preview's bytes always give the same way, worked out once for the
/// bodies answered last: the body as a `ByteBuffer` (no copy per answer),
/// its `ETag` and its `expiresAt` (for `Cache-Control`, which depends on
/// the time as well). A cached preview is answered from one stored array
/// again and again: the array's own identity finds it at once (`==` on
/// arrays sharing storage), and a body equal byte for byte is the same
/// body, so nothing here can answer another body's headers.
final class ReadyBodies: Sendable {
    struct Ready: Sendable {
        let json: [UInt8]
        let buffer: ByteBuffer
        let etag: String
        /// Seconds since 1970 of the preview's `expiresAt`; nil without one.
        let expiresAt: Int64?

        init(_ json: [UInt8]) {
            self.json = json
            buffer = ByteBuffer(bytes: json)
            etag = ETag.of(json)
            expiresAt = PreviewFreshness.expiresAt(json)
        }

        /// `Cache-Control` at `now`: as `PreviewFreshness.cacheControl` says it.
        func cacheControl(now: Int64 = PreviewFreshness.currentSeconds()) -> String {
            PreviewFreshness.cacheControl(expiresAt: expiresAt, now: now)
        }
    }

    private struct Slots {
        var ready: [Ready] = []
        var next = 0
    }

    /// How many bodies are kept (the oldest kept is replaced first).
    let capacity: Int
    private let slots = Mutex(Slots())

    init(capacity: Int = 16) {
        self.capacity = max(1, capacity)
    }

    /// `json` made ready, from the kept ones when it is one of them.
    func ready(_ json: [UInt8]) -> Ready {
        if let kept = slots.withLock({ slots in slots.ready.first { $0.json == json } }) { return kept }
        let made = Ready(json)
        slots.withLock { slots in
            if slots.ready.count < capacity {
                slots.ready.append(made)
            } else {
                slots.ready[slots.next] = made
                slots.next = (slots.next + 1) % capacity
            }
        }
        return made
    }
}
