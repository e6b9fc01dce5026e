import Curl

/// Reads a URL that may be an image (keeps all its bytes, up to a cap) or a
/// page (stops at the headers: the page is fetched by the metadata engine).
///
/// - Important: a `TransferConsumer`: curl thread only.
final class SourceConsumer: TransferConsumer {
    struct Output: Sendable {
        var status = 0
        var declaredType: String?
        var cacheControl: String?
        var bytes: [UInt8] = []
        /// The response says it is HTML: a page, not an image.
        var isPage = false
        /// More than `maxBytes` (declared or read).
        var tooLarge = false
    }

    private let maxBytes: Int
    private var output = Output()

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    func responseStarted(_ head: ResponseHead) -> TransferDecision {
        output.status = head.status
        output.declaredType = head.mediaType
        output.cacheControl = head["cache-control"]
        guard (200..<300).contains(head.status) else { return .stop }
        if let type = head.mediaType, type == "text/html" || type == "application/xhtml+xml" {
            output.isPage = true
            return .stop
        }
        if let length = head["content-length"].flatMap({ Int($0) }) {
            if length > maxBytes {
                output.tooLarge = true
                return .stop
            }
            // One allocation rather than a doubling series of copies (a
            // 3 MB photo); a length that lies costs at most the cap.
            if length > 0 { output.bytes.reserveCapacity(length) }
        }
        return .proceed
    }

    func received(_ chunk: UnsafeRawBufferPointer) -> TransferDecision {
        guard output.bytes.count + chunk.count <= maxBytes else {
            output.tooLarge = true
            return .stop
        }
        output.bytes.append(contentsOf: chunk)
        return .proceed
    }

    func finish() -> Output { output }
}
