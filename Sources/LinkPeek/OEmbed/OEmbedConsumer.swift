import Curl

/// Reads an oEmbed answer: a 2xx body of at most `OEmbedResponse.maximumBytes`.
/// A larger body (declared or read) is refused as soon as it shows, so a
/// 5 MB answer costs 64 KiB at most. A site engine's API answer is read the
/// same way, with its own cap (`LinkPeekEngine.siteMaximumBytes`).
///
/// - Important: a `TransferConsumer`: curl thread only.
final class OEmbedConsumer: TransferConsumer {
    struct Output: Sendable {
        var status: Int
        var bytes: [UInt8]
        /// The body was longer than the cap (so it is not used).
        var oversized: Bool
    }

    private let maximumBytes: Int
    /// Reads a non-2xx body too (a site API's error answer may ask to be left alone).
    private let readsErrors: Bool
    private var status = 0
    private var bytes: [UInt8] = []
    private var oversized = false

    init(maximumBytes: Int = OEmbedResponse.maximumBytes, readsErrors: Bool = false) {
        self.maximumBytes = maximumBytes
        self.readsErrors = readsErrors
    }

    func responseStarted(_ head: ResponseHead) -> TransferDecision {
        status = head.status
        guard readsErrors || (200..<300).contains(head.status) else { return .stop }
        if let length = head["content-length"].flatMap({ Int($0) }), length > maximumBytes {
            oversized = true
            return .stop
        }
        return .proceed
    }

    func received(_ chunk: UnsafeRawBufferPointer) -> TransferDecision {
        guard bytes.count + chunk.count <= maximumBytes else {
            oversized = true
            return .stop
        }
        bytes.append(contentsOf: chunk)
        return .proceed
    }

    func finish() -> Output {
        Output(status: status, bytes: oversized ? [] : bytes, oversized: oversized)
    }
}
